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
    source_column / target_column / relation_column: the CSV edge list's columns holding each edge's ends and
    relation (a header `from,to` maps with source_column="from", target_column="to");
    source_type_column / target_type_column: columns holding the type of each end, when there is no nodes table.
    """

    node_type_attribute: str | None = None
    relation_attribute: str | None = None
    default_node_type: str = "node"
    default_relation: str = "related_to"
    duplicates: DuplicatePolicy = "reject"
    missing_endpoints: MissingEndpointPolicy = "reject"
    source_column: str = "source"
    target_column: str = "target"
    relation_column: str = "relation"
    source_type_column: str | None = None
    target_type_column: str | None = None

    def __post_init__(self) -> None:
        mapped = [name for name in (self.source_column, self.target_column, self.relation_column,
                                    self.source_type_column, self.target_type_column) if name]
        if len(set(mapped)) < len(mapped):
            raise ParameterError(f"one CSV column is mapped twice among {', '.join(mapped)}", "CSV column mapping",
                                 "map each of source, target, relation and types to its own column")
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

