"""How an importer maps a file onto the graph model: attribute names, defaults and policies."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields

from core.errors import ParameterError
from core.graph.model import DuplicatePolicy, MissingEndpointPolicy

NODE_TYPE_ATTRIBUTES = ("labelV", "type", "label")  # tried in this order when none is chosen
RELATION_ATTRIBUTES = ("labelE", "relation", "label")


@dataclass(frozen=True)
class LoadOptions:
    """Options shared by the importers of attributed formats (GraphML, GML, node-link JSON, CSV).

    node_type_attribute / relation_attribute: the attribute that holds a node's type / an edge's
    relation; None picks the first of NODE_TYPE_ATTRIBUTES / RELATION_ATTRIBUTES the file uses.
    A node or edge without it gets default_node_type / default_relation.
    duplicates and missing_endpoints are the policies of `Graph.build`.
    """

    node_type_attribute: str | None = None
    relation_attribute: str | None = None
    default_node_type: str = "node"
    default_relation: str = "related_to"
    duplicates: DuplicatePolicy = "reject"
    missing_endpoints: MissingEndpointPolicy = "reject"

    def __post_init__(self) -> None:
        if self.duplicates not in ("reject", "merge"):
            raise ParameterError(f"unknown duplicates policy {self.duplicates!r}", "duplicates",
                                 "use 'reject' or 'merge'")
        if self.missing_endpoints not in ("reject", "create"):
            raise ParameterError(f"unknown missing-endpoints policy {self.missing_endpoints!r}",
                                 "missing_endpoints", "use 'reject' or 'create'")

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> LoadOptions:
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ParameterError(f"unknown load option(s) {', '.join(unknown)}", "load options",
                                 f"use some of: {', '.join(sorted(known))}")
        return cls(**values)  # type: ignore[arg-type]

    def node_type_from(self, present: Iterable[str]) -> str | None:
        return _chosen(self.node_type_attribute, NODE_TYPE_ATTRIBUTES, present)

    def relation_from(self, present: Iterable[str]) -> str | None:
        return _chosen(self.relation_attribute, RELATION_ATTRIBUTES, present)


DEFAULT_OPTIONS = LoadOptions()


def _chosen(chosen: str | None, candidates: tuple[str, ...], present: Iterable[str]) -> str | None:
    if chosen is not None:
        return chosen
    names = set(present)
    return next((name for name in candidates if name in names), None)

