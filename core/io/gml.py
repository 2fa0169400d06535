"""GML: read graphs in the Graph Modelling Language through networkx, with every failure made a LoadError.

Node ids are the GML `id` values as text. The node type comes from `labelV` or `type` (not `label`,
which GML files use for a display name; choose it explicitly if it holds the type), the relation from
`labelE`, `relation` or `label`. Nested attribute lists become compact JSON text. Without
`directed 1` a graph is undirected and each edge is given in both directions; repeated edges need
`multigraph 1`.
"""

from __future__ import annotations

import re

import networkx as nx

from core.errors import LoadError
from core.graph import Edge, Graph, Node
from core.io.building import build_graph, frozen_properties, property_value
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.options import DEFAULT_OPTIONS, LoadOptions
from core.io.text import decode_utf8, line_of

NODE_TYPE_ATTRIBUTES = ("labelV", "type")
_STRUCTURE = re.compile(r'"[^"]*"|#[^\n]*|[\[\]]')


def parse_gml(data: bytes, *, source: str = "graph.gml", options: LoadOptions = DEFAULT_OPTIONS,
              limits: Limits = DEFAULT_LIMITS) -> Graph:
    limits.check_bytes(len(data), source)
    text = decode_utf8(data, source)
    _check_nesting(text, source, limits)
    try:
        parsed = nx.parse_gml(text, label="id")
    # networkx's GML parser raises many types (IndexError on `graph [ label "abc\n\n"]`, NetworkXError,
    # ValueError, KeyError, RecursionError, ...): at this untrusted boundary every one becomes a LoadError.
    except Exception as error:  # noqa: BLE001
        fix = ("add `multigraph 1` inside `graph [ ... ]` to keep repeated edges" if "duplicated" in str(error)
               else "check the brackets, quotes and that every node has a unique `id`")
        raise LoadError(f"the GML is malformed ({type(error).__name__}: {str(error)[:200]})", source, fix) from None
    return _graph(parsed, source, options, limits)


def _check_nesting(text: str, source: str, limits: Limits) -> None:
    depth = 0
    for match in _STRUCTURE.finditer(text):
        bracket = match.group()
        if bracket == "[":
            depth += 1
            limits.check_depth(depth, source, f"line {line_of(text, match.start())}")
        elif bracket == "]":
            depth -= 1


def _graph(parsed: nx.Graph, source: str, options: LoadOptions, limits: Limits) -> Graph:
    node_attributes = {name for _, data in parsed.nodes(data=True) for name in data}
    edge_attributes = {name for *_, data in parsed.edges(data=True) for name in data}
    type_attribute = (options.node_type_attribute if options.node_type_attribute is not None
                      else next((name for name in NODE_TYPE_ATTRIBUTES if name in node_attributes), None))
    relation_attribute = options.relation_from(edge_attributes)
    nodes = []
    for node_id, data in parsed.nodes(data=True):
        where = f"node {str(node_id)[:80]!r}"
        values = {str(key): property_value(value) for key, value in data.items() if key != type_attribute}
        node_type = str(data[type_attribute]) if type_attribute in data else options.default_node_type
        nodes.append(Node(str(node_id), node_type, frozen_properties(values, source, where)))
    edges = []
    for start, end, data in parsed.edges(data=True):
        where = f"edge {str(start)[:80]!r} -> {str(end)[:80]!r}"
        values = {str(key): property_value(value) for key, value in data.items() if key != relation_attribute}
        relation = str(data[relation_attribute]) if relation_attribute in data else options.default_relation
        edge = Edge(str(start), relation, str(end), frozen_properties(values, source, where))
        edges.append(edge)
        if not parsed.is_directed() and start != end:
            edges.append(Edge(edge.target, edge.relation, edge.source, edge.properties))
    return build_graph(nodes, edges, source, options, limits=limits)
