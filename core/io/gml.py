"""GML: read graphs in the Graph Modelling Language (a linear reader following networkx's rules), every failure a LoadError.

Node ids are the GML `id` values as text (`id 1` and `id "1"` in one file are refused: they would be
one node). The node type comes from `labelV` or `type` (not `label`, which GML files use for a
display name; choose it explicitly if it holds the type), the relation from `labelE`, `relation` or
`label`; a type or relation given twice is refused. Nested attribute lists become compact JSON text.
Without `directed 1` a graph is undirected and each edge is given in both directions (a notice gives the
counts); repeated
edges need `multigraph 1`. Depth and node/edge counts are checked in one pass before the records are read.
"""

from __future__ import annotations

import re

from core.errors import LoadError
from core.graph.model import Edge, Graph, Node
from core.io.building import build_graph, frozen_properties, property_value, undirected_notice
from core.io.gml_text import ParsedGML, read_gml
from core.io.limits import DEFAULT_LIMITS, LimitError, Limits
from core.io.options import DEFAULT_OPTIONS, LoadOptions
from core.io.text import decode_utf8, line_of

NODE_TYPE_ATTRIBUTES = ("labelV", "type")
LISTS_PER_RECORD = 4  # a node or edge list and its nested attribute lists (graphics [ ... ] and the like)
# Safe on untrusted text: alternatives start with different characters; each quantified class stops at its
# own closing character (a quote, a line end), so finditer reads each character a bounded number of times.
_STRUCTURE = re.compile(r'"[^"]*"|#[^\n]*|[\[\]]|\b(?:node|edge)(?=\s*\[)')


def parse_gml(data: bytes, *, source: str = "graph.gml", options: LoadOptions = DEFAULT_OPTIONS,
              limits: Limits = DEFAULT_LIMITS) -> Graph:
    limits.check_bytes(len(data), source)
    text = decode_utf8(data, source)
    _check_structure(text, source, limits)
    try:
        parsed = read_gml(text, source, limits)
    except RecursionError:  # only with a --max-depth raised far beyond the default
        raise LoadError("the GML nests too deeply to read", source, "load a flatter file") from None
    return _graph(parsed, source, options, limits)


def _check_structure(text: str, source: str, limits: Limits) -> None:
    """Nesting depth and node/edge counts in one linear pass, before the records are read."""
    depth = nodes = edges = lists = 0
    for match in _STRUCTURE.finditer(text):
        token = match.group()
        if token == "[":
            depth += 1
            lists += 1
            if depth > limits.max_depth:  # the line is computed only for the refusal (linear overall)
                limits.check_depth(depth, source, f"line {line_of(text, match.start())}")
        elif token == "]":
            depth -= 1
        elif depth == 1 and token == "node":
            nodes += 1
        elif depth == 1 and token == "edge":
            edges += 1
    limits.check_counts(nodes, edges, source)
    most = LISTS_PER_RECORD * (limits.max_nodes + limits.max_edges) + 64
    if lists > most:  # a file of nested lists and no records would otherwise be read in full
        raise LimitError(f"the file holds {lists:,} lists ([ ... ]), more than a graph within the limits needs "
                         f"({most:,}: {LISTS_PER_RECORD} per node or edge)", source,
                         "load a smaller graph, or raise the limits (--max-nodes, --max-edges)")


def _label(data: dict, attribute: str | None, default: str, source: str, where: str) -> str:
    if attribute not in data:
        return default
    value = data[attribute]
    if isinstance(value, (list, dict)):
        raise LoadError(f"`{attribute}` is given {len(value)} times" if isinstance(value, list)
                        else f"`{attribute}` is a list of attributes, not a text", f"{source}, {where}",
                        f"give `{attribute}` once, as a text")
    return str(value)


def _checked_ids(parsed: ParsedGML, source: str) -> None:
    """`id 1` and `id "1"` are two nodes to networkx but the same text here: refuse rather than merge."""
    seen: dict[str, object] = {}
    for node_id, _ in parsed.nodes:
        known = seen.setdefault(str(node_id), node_id)
        if known is not node_id and known != node_id:
            raise LoadError(f"two nodes have the ids {known!r} and {node_id!r}, which read as the same text",
                            f"{source}, node {str(node_id)[:80]!r}", "give every node its own id")


def _graph(parsed: ParsedGML, source: str, options: LoadOptions, limits: Limits) -> Graph:
    _checked_ids(parsed, source)
    node_attributes = {name for _, data in parsed.nodes for name in data}
    edge_attributes = {name for *_, data in parsed.edges for name in data}
    type_attribute = (options.node_type_attribute if options.node_type_attribute is not None
                      else next((name for name in NODE_TYPE_ATTRIBUTES if name in node_attributes), None))
    relation_attribute = options.relation_from(edge_attributes)
    nodes = []
    for node_id, data in parsed.nodes:
        where = f"node {str(node_id)[:80]!r}"
        values = {str(key): property_value(value) for key, value in data.items() if key != type_attribute}
        node_type = _label(data, type_attribute, options.default_node_type, source, where)
        nodes.append(Node(str(node_id), node_type, frozen_properties(values, source, where)))
    edges = []
    for start, end, data in parsed.edges:
        where = f"edge {str(start)[:80]!r} -> {str(end)[:80]!r}"
        values = {str(key): property_value(value) for key, value in data.items() if key != relation_attribute}
        relation = _label(data, relation_attribute, options.default_relation, source, where)
        edge = Edge(str(start), relation, str(end), frozen_properties(values, source, where))
        edges.append(edge)
        if not parsed.directed and start != end:
            edges.append(Edge(edge.target, edge.relation, edge.source, edge.properties))
    if not parsed.directed:
        undirected_notice(source, len(parsed.edges), len(edges), "it has no `directed 1`")
    return build_graph(nodes, edges, source, options, limits=limits)
