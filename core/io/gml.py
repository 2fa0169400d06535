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
_STRUCTURE = re.compile(r'"[^"]*"|#[^\n]*|[\[\]]|\b(?:node|edge)(?=\s*\[)')
_POSITION = re.compile(r" at \((\d+), (\d+)\)$")
# What networkx's GML parser raises on malformed text (IndexError on `graph [ label "abc\n\n"]`).
_PARSER_ERRORS = (nx.NetworkXError, ValueError, KeyError, AttributeError, IndexError, TypeError, RecursionError)


def parse_gml(data: bytes, *, source: str = "graph.gml", options: LoadOptions = DEFAULT_OPTIONS,
              limits: Limits = DEFAULT_LIMITS) -> Graph:
    limits.check_bytes(len(data), source)
    text = decode_utf8(data, source)
    _check_structure(text, source, limits)
    try:
        parsed = nx.parse_gml(text, label="id")
    except _PARSER_ERRORS as error:
        raise _malformed(error, source) from None
    return _graph(parsed, source, options, limits)


def _malformed(error: Exception, source: str) -> LoadError:
    """networkx's message in the project's words: the position as a line and column, the fix for the case."""
    message = str(error).split("\n")[0] if isinstance(error, nx.NetworkXError) else ""
    position = _POSITION.search(message)
    where = f"{source}, line {position.group(1)}, column {position.group(2)}" if position else source
    reason = message[:position.start()] if position else message
    if message.startswith("cannot tokenize"):
        reason = f"unexpected text {reason.removeprefix('cannot tokenize ').strip()[:80]!r} (a quote or bracket out of place?)"
    if not reason:
        reason = f"the text cannot be parsed ({type(error).__name__})"
    if "is duplicated" in message and message.startswith("edge"):
        fix = "add `multigraph 1` inside `graph [ ... ]` to keep repeated edges"
    elif "is duplicated" in message:
        fix = "give every node its own `id`"
    else:
        fix = "check the brackets, quotes and that every node has a unique `id`"
    return LoadError(f"the GML is malformed: {reason[:200]}", where, fix)


def _check_structure(text: str, source: str, limits: Limits) -> None:
    """Nesting depth and node/edge counts in one linear pass, before networkx builds anything."""
    depth = nodes = edges = 0
    for match in _STRUCTURE.finditer(text):
        token = match.group()
        if token == "[":
            depth += 1
            if depth > limits.max_depth:  # the line is computed only for the refusal (linear overall)
                limits.check_depth(depth, source, f"line {line_of(text, match.start())}")
        elif token == "]":
            depth -= 1
        elif depth == 1 and token == "node":
            nodes += 1
        elif depth == 1 and token == "edge":
            edges += 1
    limits.check_counts(nodes, edges, source)


def _label(data: dict, attribute: str | None, default: str, source: str, where: str) -> str:
    if attribute not in data:
        return default
    value = data[attribute]
    if isinstance(value, (list, dict)):
        raise LoadError(f"`{attribute}` is given {len(value)} times" if isinstance(value, list)
                        else f"`{attribute}` is a list of attributes, not a text", f"{source}, {where}",
                        f"give `{attribute}` once, as a text")
    return str(value)


def _checked_ids(parsed: nx.Graph, source: str) -> None:
    """`id 1` and `id "1"` are two nodes to networkx but the same text here: refuse rather than merge."""
    seen: dict[str, object] = {}
    for node_id in parsed.nodes:
        known = seen.setdefault(str(node_id), node_id)
        if known is not node_id and known != node_id:
            raise LoadError(f"two nodes have the ids {known!r} and {node_id!r}, which read as the same text",
                            f"{source}, node {str(node_id)[:80]!r}", "give every node its own id")


def _graph(parsed: nx.Graph, source: str, options: LoadOptions, limits: Limits) -> Graph:
    _checked_ids(parsed, source)
    node_attributes = {name for _, data in parsed.nodes(data=True) for name in data}
    edge_attributes = {name for *_, data in parsed.edges(data=True) for name in data}
    type_attribute = (options.node_type_attribute if options.node_type_attribute is not None
                      else next((name for name in NODE_TYPE_ATTRIBUTES if name in node_attributes), None))
    relation_attribute = options.relation_from(edge_attributes)
    nodes = []
    for node_id, data in parsed.nodes(data=True):
        where = f"node {str(node_id)[:80]!r}"
        values = {str(key): property_value(value) for key, value in data.items() if key != type_attribute}
        node_type = _label(data, type_attribute, options.default_node_type, source, where)
        nodes.append(Node(str(node_id), node_type, frozen_properties(values, source, where)))
    edges = []
    for start, end, data in parsed.edges(data=True):
        where = f"edge {str(start)[:80]!r} -> {str(end)[:80]!r}"
        values = {str(key): property_value(value) for key, value in data.items() if key != relation_attribute}
        relation = _label(data, relation_attribute, options.default_relation, source, where)
        edge = Edge(str(start), relation, str(end), frozen_properties(values, source, where))
        edges.append(edge)
        if not parsed.is_directed() and start != end:
            edges.append(Edge(edge.target, edge.relation, edge.source, edge.properties))
    return build_graph(nodes, edges, source, options, limits=limits)
