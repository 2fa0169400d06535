"""Pajek `.net`: read networks by networkx's rules in linear time (`core.io.pajek_text`), and write them.

Reading: `*Vertices N` lines give numbered nodes with a label; the label is the node's id (as
networkx reads it), the Pajek number is only the reference edges use and is not kept. Two vertices
with one label, and an arc to an undeclared number, follow the duplicates and missing-endpoints
policies (networkx would merge or create them silently). Coordinates
and shape become properties x, y and shape (except 0 0 ellipse, networkx's placeholder for "no
position"), further `key value` pairs text properties; a `type` (or the chosen attribute) gives the
node type. `*Arcs` are directed edges, `*Edges` undirected ones (given in both directions),
`*Matrix` rows a directed adjacency matrix. An edge's value becomes the property `weight` (except
1, Pajek's default value); a `labelE`, `relation`, `label` or `l` (Pajek's edge label) pair gives the relation.
A vertex line's fields follow networkx's rule: two coordinates, then a third number (a z coordinate)
or a shape, then `key value` pairs; a z coordinate is therefore read as the shape and the pairs shift,
and an unpaired last field is dropped (`1 "V" 0.4 0.4 0.5 ellipse foo bar` gives shape "0.5" and
ellipse "foo"), so files read as networkx reads them, with a notice saying what moved or was dropped.
Blank lines are skipped; a two-mode network (`*Vertices 13 8`) is read as one mode, with a notice; so are
*Edges read both ways (with the counts). Each field is checked against the string limit as it is read.

Writing: networkx's Pajek writer, with the type as the pair `type`, the relation as `relation` and
each property as a text pair. Pajek holds text only: numbers and booleans come back as text, so the
export is lossy in value types (and ids or values holding quotes, backslashes, tabs or line breaks are refused).
"""

from __future__ import annotations

import re
import warnings

import networkx as nx

from core.errors import GraphError, LoadError, LoadNotice
from core.graph.model import Graph
from core.io.building import graph_from_networkx, missing_endpoint_error, undirected_notice
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.options import DEFAULT_OPTIONS, RELATION_ATTRIBUTES, LoadOptions
from core.io.pajek_text import PajekNetwork, read_network
from core.io.text import decode_utf8

PAJEK_RELATION_ATTRIBUTES = RELATION_ATTRIBUTES + ("l",)  # `l` is Pajek's own edge label

NODE_TYPE_ATTRIBUTES = ("labelV", "type")
# Safe on untrusted text (each below): anchored at line starts; one class per quantifier, no overlap.
_SECTION = re.compile(r"^\*(\w+)", re.MULTILINE)
_VERTICES = re.compile(r"^\*vertices[ \t]+(\S+)", re.IGNORECASE | re.MULTILINE)
_FIX = "check the *Vertices count and that every line is `number \"label\" ...` or `from to [weight]`"
_NOT_PAJEK_TEXT = re.compile("[\"'\\\\\x00-\x1f\x7f\x85\u2028\u2029]")  # shlex quotes and escapes; control characters
_NO_POSITION = (0.0, 0.0, "ellipse")  # what networkx writes for a node without coordinates


def parse_pajek(data: bytes, *, source: str = "graph.net", options: LoadOptions = DEFAULT_OPTIONS,
                limits: Limits = DEFAULT_LIMITS) -> Graph:
    limits.check_bytes(len(data), source)
    text = decode_utf8(data, source).replace("\r\n", "\n").replace("\r", "\n")  # a UTF-8 BOM is dropped here
    # Blank lines (LF+CR line ends make one after every line) stop networkx's reader mid-section; they hold nothing.
    numbered = [(number, line) for number, line in enumerate(text.split("\n"), start=1) if line.strip()]
    text = _one_mode("\n".join(line for _, line in numbered), source)  # one line changed at most, none removed
    vertices = _check_counts(text, source, limits)
    network = read_network(text.split("\n"), [number for number, _ in numbered], source, limits)
    _check_declared(network.graph, vertices, source, options)
    _notices(network, source)
    return _graph(network.graph, source, options, limits)


def _notices(network: PajekNetwork, source: str) -> None:
    """What networkx's vertex rule moved or dropped, and the *Edges read both ways, each as one line."""
    parts = []
    if network.vertex_number_as_shape:
        parts.append(f"{len(network.vertex_number_as_shape):,} vertex line(s) give a number where the shape goes "
                     f"(a z coordinate?): read as the shape, and the key-value pairs after it shift by one "
                     f"(first at line {network.vertex_number_as_shape[0]})")
    if network.vertex_fields_dropped:
        parts.append(f"{len(network.vertex_fields_dropped):,} vertex line(s) have fields networkx's rule drops (x y "
                     f"without a shape, coordinates that are not numbers, or an unpaired last field; first at line "
                     f"{network.vertex_fields_dropped[0]})")
    if parts:
        warnings.warn(LoadNotice(f"{source}: {'; '.join(parts)}. A vertex line is read as `number \"label\" x y "
                                 "shape key value ...`"), stacklevel=3)
    undirected_notice(source, network.undirected_lines, network.undirected_arcs, "*Edges",
                      of_all=network.graph.number_of_edges() - network.undirected_arcs + network.undirected_lines)


_TWO_MODE = re.compile(r"^(\*vertices[ \t]++[0-9]++)[ \t]++([0-9]++)[ \t]*+$", re.IGNORECASE | re.MULTILINE)


def _one_mode(text: str, source: str) -> str:
    """`*Vertices 13 8` (a two-mode network: the first 8 vertices are one mode) as `*Vertices 13`, which networkx
    reads; the nodes and edges are the same, and a notice says the mode split is not kept."""
    found = _TWO_MODE.search(text)
    if found is None:
        return text
    warnings.warn(LoadNotice(f"{source}: a two-mode network ({found.group(0).strip()}): read as one mode; which "
                             f"vertices form the first mode ({found.group(2)}) is not kept"), stacklevel=3)
    return text[:found.start()] + found.group(1) + text[found.end():]


def _check_declared(parsed: nx.Graph, vertices: int, source: str, options: LoadOptions) -> None:
    """networkx keys nodes by label, so two vertices with one label merge, and an arc to an undeclared number
    creates a node: follow the duplicates and missing-endpoints policies instead."""
    declared = [node for node, data in parsed.nodes(data=True) if "id" in data]
    if len(declared) < vertices and options.duplicates == "reject":
        raise LoadError(f"{vertices - len(declared)} of the {vertices:,} vertices repeat the label of another",
                        source, "give every vertex its own label, or load with duplicates set to 'merge' "
                                "(--duplicates merge)")
    if options.missing_endpoints == "reject":
        undeclared = [node for node, data in parsed.nodes(data=True) if "id" not in data]
        if undeclared:
            raise missing_endpoint_error(str(undeclared[0]), source, "an arc or edge line")


def _check_counts(text: str, source: str, limits: Limits) -> int:
    """The *Vertices count and the edge lines, against the limits, before networkx loops over them."""
    if not _SECTION.search(text):
        raise LoadError("the file has no *Vertices, *Arcs or *Edges section", source, _FIX)
    declared = _VERTICES.search(text)
    vertices = 0
    if declared is not None:
        if not declared.group(1).isdigit():
            raise LoadError(f"the *Vertices count {declared.group(1)[:40]!r} is not a whole number", source, _FIX)
        vertices = int(declared.group(1))
        lines = sum(1 for line in text[declared.end():].split("\n")[1:] if line.strip())
        limits.check_counts(vertices, 0, source)
        if vertices > lines:
            raise LoadError(f"*Vertices declares {vertices:,} nodes but only {lines:,} line(s) follow", source, _FIX)
    edge_lines = 0
    in_edges = False
    for line in text.split("\n"):
        if line.startswith("*"):
            in_edges = line.lower().startswith(("*arcs", "*edges", "*matrix"))
        elif in_edges and line.strip():
            edge_lines += 1
    limits.check_counts(0, edge_lines, source)
    return vertices


def _graph(parsed: nx.Graph, source: str, options: LoadOptions, limits: Limits) -> Graph:
    return graph_from_networkx(parsed, source, options, limits, type_attributes=NODE_TYPE_ATTRIBUTES,
                               relation_attributes=PAJEK_RELATION_ATTRIBUTES, node_values=_node_values,
                               edge_values=lambda data, relation_attribute: {
                                   key: value for key, value in data.items()
                                   if key != relation_attribute and not (key == "weight" and value == 1.0)})


def _node_values(node_id: object, data: dict, type_attribute: str | None) -> dict:
    if (data.get("x"), data.get("y"), data.get("shape")) == _NO_POSITION:  # networkx's defaults, not the file's
        data = {key: value for key, value in data.items() if key not in ("x", "y", "shape")}
    return {key: value for key, value in data.items() if key not in ("id", type_attribute)}


def write_pajek(graph: Graph) -> str:
    """Pajek text: ids, types, relations and properties as text (GraphError for text Pajek cannot quote)."""
    network = nx.MultiDiGraph()
    for node in graph.nodes:
        network.add_node(node.id, type=node.type, **_text_pairs(node.properties, ("type", "id", "x", "y", "shape"),
                                                                f"node {node.id!r}"))
        _check_text(node.id, f"node {node.id!r}")
        _check_text(node.type, f"node {node.id!r}")
    for edge in graph.edges:
        where = f"edge {edge.source!r} -> {edge.target!r}"
        _check_text(edge.relation, where)
        network.add_edge(edge.source, edge.target, relation=edge.relation,
                         **_text_pairs(edge.properties, ("relation", "weight"), where))
    return "\n".join(nx.generate_pajek(network)) + "\n"


def _text_pairs(properties, reserved: tuple[str, ...], where: str) -> dict[str, str]:
    pairs = {}
    for key, value in properties:
        if key in reserved:
            raise GraphError(f"a property is named {key!r}, which Pajek gives a meaning of its own", f"Pajek export, {where}",
                             "rename the property, or export as GraphML or node-link JSON")
        text = (value if isinstance(value, str) else ("true" if value else "false") if isinstance(value, bool)
                else repr(value) if isinstance(value, float) else str(value))
        _check_text(key, where)
        _check_text(text, where)
        pairs[key] = text
    return pairs


def _check_text(text: str, where: str) -> None:
    if not text.strip() or _NOT_PAJEK_TEXT.search(text):
        raise GraphError(f"the text {text[:40]!r} is empty or holds a quote, a backslash or a control "
                         "character, which Pajek cannot quote", f"Pajek export, {where}", "export as GraphML or node-link JSON")
