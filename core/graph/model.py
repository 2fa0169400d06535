"""The graph model: immutable typed nodes and directed typed edges, an optional schema, a canonical hash."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from operator import itemgetter
from typing import Literal

import networkx as nx

from core.errors import GraphError
from core.graph.derived import MEMO

PropertyValue = str | int | float | bool
Properties = tuple[tuple[str, PropertyValue], ...]

DuplicatePolicy = Literal["reject", "merge"]
MissingEndpointPolicy = Literal["reject", "create"]


# The type of a node known only as an edge's endpoint: every decoder and every kept graph writes it.
ORPHAN_TYPE = "unknown"

# Safe on any text: a single character class.
_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(text: str, field_name: str, where: str) -> None:
    """Refuse a lone surrogate (a half of a UTF-16 pair, e.g. from a JSON `\\ud800` escape): it has no UTF-8 form,
    so no file, hash or tokenizer could take the graph."""
    if not text.isascii():
        found = _SURROGATE.search(text)
        if found:
            raise GraphError(f"the {field_name} holds an unpaired surrogate U+{ord(found.group()):04X}, "
                             f"which is not a character", where,
                             "write the character itself or a paired escape (\\ud83d\\ude00), "
                             "or remove the lone half")


def freeze_properties(properties: Mapping[str, PropertyValue] | Iterable[tuple[str, PropertyValue]] | None,
                      where: str = "") -> Properties:
    """Validate property values and return them as a tuple of pairs, in the order given (the file's order).

    The order is kept for the formats that write it; equality, hashing and the canonical text ignore it."""
    if not properties:
        return ()
    pairs = list(properties.items()) if isinstance(properties, Mapping) else list(properties)
    keys = [key for key, _ in pairs]
    repeated = sorted(key for key, count in Counter(keys).items() if count > 1)
    if repeated:
        raise GraphError(f"property keys {repeated!r} are given more than once", where,
                         "give each property key once")
    for key, value in pairs:
        if not isinstance(key, str):
            raise GraphError(f"property key {key!r} is not a string", where, "use text property keys")
        check_text(key, "property key", where)
        if not isinstance(value, (str, int, float, bool)):
            raise GraphError(f"property {key!r} has a value of type {type(value).__name__}", where,
                             "use text, whole numbers, finite decimals or true/false")
        if isinstance(value, float) and not math.isfinite(value):
            raise GraphError(f"property {key!r} is {value!r}", where, "use a finite number or text")
        if isinstance(value, str):
            check_text(value, f"value of property {key!r}", where)
    return tuple(pairs)


def sorted_properties(properties: Properties) -> Properties:
    """The pairs by key: the order-free form that equality, sorting and the canonical text use."""
    if len(properties) < 2:
        return properties
    return tuple(sorted(properties, key=itemgetter(0)))


def properties_json(properties: Properties) -> str:
    """Compact JSON object text of properties; the canonical tie-breaker and a common encoding."""
    if not properties:  # most units have none: every edge sort asks
        return "{}"
    return json.dumps(dict(properties), ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, eq=False)
class Node:
    """A node. `properties` keep the order they were given in; equality and hashing ignore that order.

    `id_value` is the id as the source wrote it when that was a whole number (1 for `"id": 1`), for the
    formats that write numbers as numbers; `id` is always its text, and equality and hashing ignore it.
    """

    id: str
    type: str
    properties: Properties = ()
    id_value: int | None = None

    @property
    def sort_key(self) -> tuple[str, str, str]:
        return (self.id, self.type, properties_json(sorted_properties(self.properties)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        return (self.id == other.id and self.type == other.type
                and (self.properties == other.properties
                     or sorted_properties(self.properties) == sorted_properties(other.properties)))

    def __hash__(self) -> int:
        return hash((self.id, self.type, sorted_properties(self.properties)))


@dataclass(frozen=True, eq=False)
class Edge:
    """An edge. `properties` keep the order they were given in; equality and hashing ignore that order."""

    source: str
    relation: str
    target: str
    properties: Properties = ()

    @property
    def sort_key(self) -> tuple[str, str, str, str]:
        return (self.source, self.relation, self.target, properties_json(sorted_properties(self.properties)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Edge):
            return NotImplemented
        return (self.source == other.source and self.relation == other.relation and self.target == other.target
                and (self.properties == other.properties
                     or sorted_properties(self.properties) == sorted_properties(other.properties)))

    def __hash__(self) -> int:
        return hash((self.source, self.relation, self.target, sorted_properties(self.properties)))


@dataclass(frozen=True)
class RelationReading:
    """How a relation reads in prose, in both directions, and which node types it links."""

    relation: str
    forward: str  # "depends on": "A depends on B"
    inverse: str  # "is depended on by": "B is depended on by A"
    source_types: tuple[str, ...] = ()
    target_types: tuple[str, ...] = ()


@dataclass(frozen=True)
class Schema:
    """Optional meaning of a graph: a definition per node type and prose readings per relation."""

    type_definitions: tuple[tuple[str, str], ...] = ()
    relations: tuple[RelationReading, ...] = ()

    def definition_of(self, node_type: str) -> str | None:
        return dict(self.type_definitions).get(node_type)

    def reading_of(self, relation: str) -> RelationReading:
        for reading in self.relations:
            if reading.relation == relation:
                return reading
        return default_reading(relation)


def default_reading(relation: str) -> RelationReading:
    """Readings derived from a relation name when no schema gives them: depends_on -> "depends on"."""
    forward = relation.replace("_", " ").strip() or relation
    return RelationReading(relation, forward, f"is the target of {forward} from")


@dataclass(frozen=True, eq=False)
class Graph:
    """A typed directed multigraph in canonical form (nodes sorted by id, edges sorted).

    Build one with `Graph.build`, which validates and canonicalises; equality and `sha256` are
    defined on the canonical JSON text, so `True` and `1` are different property values.
    """

    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    schema: Schema | None = None
    _node_index: dict[str, Node] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def build(cls, nodes: Iterable[Node], edges: Iterable[Edge], schema: Schema | None = None, *,
              duplicates: DuplicatePolicy = "reject",
              missing_endpoints: MissingEndpointPolicy = "reject",
              missing_type: str = "unknown") -> Graph:
        """Validate and canonicalise.

        duplicates="reject" raises on two node records with one id that disagree; "merge" keeps the
        first record's type and takes the union of properties, refusing a property that disagrees.
        Identical repeated node records are always collapsed into one.
        missing_endpoints="reject" raises on edges whose endpoint is not a node; "create" adds such
        endpoints as nodes of type `missing_type` with no properties.
        """
        node_list = [_checked_node(node) for node in nodes]
        edge_list = [_checked_edge(edge) for edge in edges]
        by_id = _merge_nodes(node_list, duplicates)
        missing = sorted({end for edge in edge_list for end in (edge.source, edge.target)} - by_id.keys())
        if missing:
            if missing_endpoints == "reject":
                raise GraphError(
                    f"{len(missing)} edge endpoint(s) are not declared as nodes: {_preview(missing)}",
                    "edges", "declare these nodes, or load with missing endpoints set to 'create'")
            for node_id in missing:
                by_id[node_id] = Node(node_id, missing_type)
        sorted_nodes = tuple(by_id[node_id] for node_id in sorted(by_id))
        sorted_edges = tuple(sorted(edge_list, key=lambda edge: edge.sort_key))
        return cls(sorted_nodes, sorted_edges, schema)

    def __getstate__(self) -> dict[str, object]:
        """What pickles (a graph sent to Ray, a copy): the graph without its memo of derived values
        (core.graph.derived), which the receiver builds again if it asks; its formats' records alone are
        hundreds of MB on a large graph."""
        return {name: value for name, value in vars(self).items() if name != MEMO}

    @property
    def node_by_id(self) -> dict[str, Node]:
        index = self._node_index
        if index is None:
            index = {node.id: node for node in self.nodes}
            object.__setattr__(self, "_node_index", index)
        return index

    @cached_property
    def canonical_text(self) -> str:
        """Canonical JSON of nodes and edges (the schema is not part of the graph's content)."""
        value = {
            "nodes": [[node.id, node.type, dict(sorted_properties(node.properties))] for node in self.nodes],
            "edges": [[edge.source, edge.relation, edge.target, dict(sorted_properties(edge.properties))]
                      for edge in self.edges],
        }
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    @cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.canonical_text.encode("utf-8")).hexdigest()

    @cached_property
    def content_key(self) -> str:
        """Cache key covering content and schema (the schema changes what some formats write)."""
        schema_text = repr(self.schema) if self.schema else ""
        return hashlib.sha256((self.canonical_text + "\0" + schema_text).encode("utf-8")).hexdigest()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return self.canonical_text == other.canonical_text

    def __hash__(self) -> int:
        return hash(self.canonical_text)

    @property
    def has_properties(self) -> bool:
        return any(node.properties for node in self.nodes) or any(edge.properties for edge in self.edges)

    def with_schema(self, schema: Schema | None) -> Graph:
        return Graph(self.nodes, self.edges, schema)

    def to_networkx(self) -> nx.MultiDiGraph:
        """A MultiDiGraph with `type` on nodes, `relation` on edges and properties under `properties`."""
        graph = nx.MultiDiGraph()
        for node in self.nodes:
            graph.add_node(node.id, type=node.type, properties=dict(node.properties))
        for edge in self.edges:
            graph.add_edge(edge.source, edge.target, relation=edge.relation,
                           properties=dict(edge.properties))
        return graph

    @classmethod
    def from_networkx(cls, graph: nx.Graph, *, type_attribute: str = "type",
                      relation_attribute: str = "relation", default_type: str = "node",
                      default_relation: str = "related_to", **build_options) -> Graph:
        """Read node type and relation from the named attributes; every other attribute is a property.

        An undirected networkx graph is made explicit: each edge becomes two directed edges.
        """
        nodes = [_node_from_attributes(node_id, data, type_attribute, default_type)
                 for node_id, data in graph.nodes(data=True)]
        edges = []
        for source, target, data in graph.edges(data=True):
            edge = _edge_from_attributes(source, target, data, relation_attribute, default_relation)
            edges.append(edge)
            if not graph.is_directed() and source != target:
                edges.append(Edge(edge.target, edge.relation, edge.source, edge.properties))
        return cls.build(nodes, edges, **build_options)


def _checked_node(node: Node) -> Node:
    if not isinstance(node.id, str) or not isinstance(node.type, str):
        raise GraphError(f"node {node.id!r} has a non-text id or type", f"node {node.id!r}",
                         "use text ids and types")
    if node.id.isascii() and node.type.isascii() and node.properties == () and node.id_value is None:
        return node  # nothing to check or freeze (the common case: decoders build many of these)
    where = f"node {node.id!r}"
    check_text(node.id, "node id", where)
    check_text(node.type, "node type", where)
    if node.id_value is not None and (type(node.id_value) is not int or str(node.id_value) != node.id):
        raise GraphError(f"node {node.id!r} has the number id {node.id_value!r}, which is not its text", where,
                         "give id_value only as the whole number the id spells")
    return Node(node.id, node.type, freeze_properties(node.properties, f"node {node.id!r}"), node.id_value)


def _checked_edge(edge: Edge) -> Edge:
    parts = (edge.source, edge.relation, edge.target)
    if not all(isinstance(part, str) for part in parts):
        raise GraphError(f"edge {parts!r} has a non-text endpoint or relation", f"edge {parts!r}",
                         "use text ids and relations")
    if edge.source.isascii() and edge.relation.isascii() and edge.target.isascii() and edge.properties == ():
        return edge  # nothing to check or freeze (the common case)
    where = f"edge {edge.source!r} -[{edge.relation!r}]-> {edge.target!r}"
    for part, field_name in zip(parts, ("edge source", "relation", "edge target")):
        check_text(part, field_name, where)
    return Edge(*parts, freeze_properties(edge.properties, where))


def _merge_nodes(nodes: list[Node], policy: DuplicatePolicy) -> dict[str, Node]:
    by_id: dict[str, Node] = {}
    conflicts: list[str] = []
    for node in nodes:
        known = by_id.get(node.id)
        if known is None or known == node:
            by_id.setdefault(node.id, node)
            continue
        merged = _merged(known, node) if policy == "merge" else None
        if merged is None:
            conflicts.append(node.id)
        else:
            by_id[node.id] = merged
    if conflicts:
        fix = ("make the records agree or drop one" if policy == "merge"
               else "make the records agree, or load with duplicates set to 'merge' "
                    "(first type wins, properties are united, a disagreeing property is refused)")
        raise GraphError(f"{len(set(conflicts))} node id(s) have records that disagree: "
                         f"{_preview(sorted(set(conflicts)))}", "nodes", fix)
    return by_id


def _merged(first: Node, second: Node) -> Node | None:
    properties = dict(first.properties)
    for key, value in second.properties:
        if key in properties and properties_json(((key, properties[key]),)) != properties_json(((key, value),)):
            return None
        properties[key] = value
    return Node(first.id, first.type, freeze_properties(properties), first.id_value)


def _preview(items: list[str], limit: int = 10) -> str:
    shown = ", ".join(repr(item) for item in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _scalar(value: object) -> PropertyValue:
    if isinstance(value, (str, int, float, bool)) and not (isinstance(value, float) and not math.isfinite(value)):
        return value
    return str(value)


def _attribute_properties(data: dict, reserved: str) -> dict[str, PropertyValue]:
    """Every attribute but the reserved one; a nested `properties` dict (as `to_networkx` writes) is unpacked."""
    properties: dict[str, PropertyValue] = {}
    for key, value in data.items():
        if key == reserved:
            continue
        if key == "properties" and isinstance(value, dict):
            properties.update({str(inner): _scalar(item) for inner, item in value.items()})
        else:
            properties[str(key)] = _scalar(value)
    return properties


def _node_from_attributes(node_id: object, data: dict, type_attribute: str, default_type: str) -> Node:
    node_type = str(data.get(type_attribute, default_type))
    properties = _attribute_properties(data, type_attribute)
    return Node(str(node_id), node_type, freeze_properties(properties, f"node {node_id!r}"))


def _edge_from_attributes(source: object, target: object, data: dict, relation_attribute: str,
                          default_relation: str) -> Edge:
    relation = str(data.get(relation_attribute, default_relation))
    properties = _attribute_properties(data, relation_attribute)
    return Edge(str(source), relation, str(target), freeze_properties(properties))
