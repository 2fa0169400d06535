"""GEXF (Gephi's native format): read through networkx after a safe first pass, and write back.

Reading: the XML is first checked with defusedxml (no DTD, no entities), its nesting limited and
its <node> and <edge> elements counted against the limits as it streams; then networkx's reader
builds the graph. A node's id is its GEXF id; its type comes from the attribute `labelV` or `type`
(not the GEXF `label`, which is a display name, kept as the property `label` unless it only repeats
the id); the relation from `labelE`, `relation` or the edge `label`. Other attributes are
properties with their declared types; visual data (`viz`) and spells become compact JSON text. A node
without a label has no `label` property. The graph model holds finite numbers only, so a declared double
of INF or -INF is kept as the text "Infinity" or "-Infinity" (as JSON writers spell them), with a notice. Dynamic
`timestamp` attributes are dropped, as networkx drops them, with a notice. GEXF 1.1, 1.2 and 1.3 namespaces are read
(Gephi's "http://www.gexf.net/1.3" too).
Edge ids are not kept; a repeated node id and an edge to an undeclared node follow the duplicates
and missing-endpoints policies (networkx would merge and create them silently). An undirected graph
(defaultedgetype="undirected", or none: GEXF's default) gets each edge in both directions, with a notice giving
the counts; so does a "mutual" edge. A file without <graph>, or in a namespace no GEXF version uses, is
refused saying which.

Writing: networkx's GEXF 1.2 writer, with the type as `labelV`, the relation as `labelE` and each
property as a typed attribute, so the file reads back as the same graph.
"""

from __future__ import annotations

import io
import warnings

import networkx as nx

from core.errors import GraphError, LoadError, LoadNotice
from core.graph.model import Graph, Node
from core.io.building import graph_from_networkx, missing_endpoint_error
from core.io.graphml import _NOT_XML
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.options import DEFAULT_OPTIONS, RELATION_ATTRIBUTES, LoadOptions
from core.io.text import decode_utf8
from core.io.xml_check import XmlSummary, check_xml

NODE_TYPE_ATTRIBUTES = ("labelV", "type")
_DROPPED_EDGE_ATTRIBUTES = ("id", "networkx_key")  # an index, not content
# Property names the GEXF writer gives a meaning of its own: a graph with them cannot be written faithfully.
_RESERVED = {"node": ("viz", "start", "end", "pid", "spells", "slices", "networkx_key"),
             "edge": ("id", "type", "networkx_key", "viz", "start", "end", "spells", "slices")}
_FIX = "check that the file is GEXF exported by Gephi or another graph tool"
_NAMESPACES = tuple(version["NS_GEXF"] for version in nx.readwrite.gexf.GEXF.versions.values())
# What networkx's GEXF reader raises on files it cannot make sense of.
_READER_ERRORS = (nx.NetworkXError, ValueError, KeyError, TypeError, AttributeError, IndexError, RuntimeError)


def parse_gexf(data: bytes, *, source: str = "graph.gexf", options: LoadOptions = DEFAULT_OPTIONS,
               limits: Limits = DEFAULT_LIMITS) -> Graph:
    """The graph in GEXF `data`; any problem is a LoadError naming where it is and how to fix it."""
    limits.check_bytes(len(data), source)
    decode_utf8(data, source, allow_nul=True)  # the file's text must be UTF-8 (the XML parser names a NUL)
    summary = check_xml(data, source, limits, fix=_FIX)
    if summary.root != "gexf":
        raise LoadError(f"the root element is <{summary.root}>, not <gexf>", source,
                        "load a GEXF file, or name the file's format")
    _check_graph_element(summary, source)
    # Gephi writes GEXF 1.3 under "http://www.gexf.net/1.3"; networkx knows it as "http://gexf.net/1.3" only.
    data = bytes(data).replace(b"http://www.gexf.net/1.3", b"http://gexf.net/1.3")
    try:
        parsed = nx.read_gexf(io.BytesIO(data))
    except _READER_ERRORS as error:
        raise LoadError(f"the GEXF cannot be read: {str(error)[:200] or type(error).__name__}", source, _FIX) from None
    if b"timestamp" in data:  # networkx reads start/end and spells, not GEXF 1.3's timestamp(s): say so
        warnings.warn(LoadNotice(f"{source}: skipped the dynamic 'timestamp' and 'timestamps' attributes "
                                 "(GEXF 1.3 time data is not read; start/end and spells are)"), stacklevel=2)
    return _graph(parsed, source, options, limits, summary.node_ids, _undirected_declaration(data))


def _check_graph_element(summary: XmlSummary, source: str) -> None:
    """networkx says "No <graph> element" both when there is none and when the namespace is one it does not
    know: say which."""
    known = summary.namespace in _NAMESPACES or summary.namespace == "http://www.gexf.net/1.3"
    named = f"it is {summary.namespace[:120]!r}" if summary.namespace else "<gexf> declares no xmlns"
    if "graph" not in summary.children:
        where = "" if known else f" (and its namespace is not a GEXF version's: {named})"
        raise LoadError(f"the file has no <graph> element inside <gexf>{where}", source,
                        "put the nodes and edges in <gexf><graph defaultedgetype=\"directed\"><nodes>...</nodes>"
                        "<edges>...</edges></graph></gexf>, or export the file again")
    if not known:
        raise LoadError(f"the file's GEXF namespace is not one of the GEXF versions this reader knows ({named})",
                        source,
                        f"declare one of these on <gexf>: {', '.join(f'xmlns={name!r}' for name in _NAMESPACES)}")


def _undirected_declaration(data: bytes) -> str:
    """How the file makes its graph undirected, for the notice (GEXF's default edge type is undirected)."""
    return 'defaultedgetype="undirected"' if b"defaultedgetype" in data else "no defaultedgetype, GEXF's default"


def _check_declared(node_ids: list[str], parsed: nx.Graph, source: str, options: LoadOptions) -> None:
    """networkx merges a repeated node id and creates an edge's undeclared end silently: follow the policies."""
    seen: set[str] = set()
    for node_id in node_ids:
        if node_id in seen and options.duplicates == "reject":
            raise LoadError(f"the node id {node_id[:80]!r} is declared twice", source,
                            "give every node its own id, or load with duplicates set to 'merge' (--duplicates merge)")
        seen.add(node_id)
    if options.missing_endpoints == "reject":
        for start, end in parsed.edges():
            for node_id in (start, end):
                if str(node_id) not in seen:
                    raise missing_endpoint_error(str(node_id), source, f"edge {str(start)[:80]!r} -> {str(end)[:80]!r}")


def _graph(parsed: nx.Graph, source: str, options: LoadOptions, limits: Limits, node_ids: list[str],
           undirected: str) -> Graph:
    _check_declared(node_ids, parsed, source, options)
    return graph_from_networkx(
        parsed, source, options, limits, type_attributes=NODE_TYPE_ATTRIBUTES, relation_attributes=RELATION_ATTRIBUTES,
        undirected=undirected,
        node_values=lambda node_id, data, type_attribute: {
            key: value for key, value in data.items()
            if key != type_attribute and not (key == "label" and value in (node_id, None))},  # GEXF's label = id
        edge_values=lambda data, relation_attribute: {
            key: value for key, value in data.items()
            if key != relation_attribute and key not in _DROPPED_EDGE_ATTRIBUTES})


def write_gexf(graph: Graph) -> str:
    """GEXF 1.2 text that `parse_gexf` reads back as the same graph (GraphError for what GEXF cannot hold)."""
    _refuse_unwritable(graph)
    network = nx.MultiDiGraph()
    for node in graph.nodes:
        network.add_node(node.id, labelV=node.type, **dict(node.properties))
    for edge in graph.edges:
        network.add_edge(edge.source, edge.target, labelE=edge.relation, **dict(edge.properties))
    return "\n".join(nx.generate_gexf(network)) + "\n"


def _refuse_unwritable(graph: Graph) -> None:
    texts = [text for node in graph.nodes for text in (node.id, node.type)]
    texts += [edge.relation for edge in graph.edges]
    texts += [text for item in graph.nodes + graph.edges for key, value in item.properties
              for text in (key, value) if isinstance(text, str)]
    for text in texts:
        found = _NOT_XML.search(text)
        if found:
            raise GraphError(f"the text {text[:40]!r} holds the character U+{ord(found.group()):04X}, which XML 1.0 "
                             "cannot hold", "GEXF export", "export as node-link JSON or one of the project's formats")
    types: dict[tuple[str, str], type] = {}
    for kind, items in (("node", graph.nodes), ("edge", graph.edges)):
        fixed = "labelV" if kind == "node" else "labelE"
        for item in items:
            for key, value in item.properties:
                if kind == "edge" and key == "weight" and not isinstance(value, float):  # read back as a float
                    raise GraphError(f"the edge property 'weight' is {value!r}; GEXF reads an edge weight back as a "
                                     "decimal", "GEXF export", "write weights as decimals, or export as node-link JSON")
                if key in _RESERVED[kind] or key == fixed:
                    raise GraphError(f"a {kind} property is named {key!r}, which GEXF gives a meaning of its own",
                                     "GEXF export", "rename the property, or export as GraphML or node-link JSON")
                known = types.setdefault((kind, key), type(value))
                if known is not type(value):  # one GEXF attribute has one declared type
                    raise GraphError(f"the {kind} property {key!r} holds values of several types "
                                     f"({known.__name__} and {type(value).__name__})", "GEXF export",
                                     "give the property one type, or export as node-link JSON")
            if isinstance(item, Node) and dict(item.properties).get("label") == item.id:
                raise GraphError(f"node {item.id!r} has a label that repeats its id, which reads back as no label",
                                 "GEXF export", "drop that label, or export as node-link JSON")
