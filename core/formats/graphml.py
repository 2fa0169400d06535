"""graphml: GraphML written by networkx's GraphML writer, read back by `networkx.parse_graphml`.

The graph becomes a networkx MultiDiGraph: a node's id is its GraphML id, its type the `type`
attribute; an edge (GraphML id `e<i>`, its position in canonical edge order) carries `relation`;
properties are further attributes, typed by their `<key attr.type>` (string, long, double,
boolean), so `True`, `1` and `1.0` stay apart. A property named like the reserved attribute of its
element (`type` on nodes, `relation` on edges) or starting with `~` gets one more `~` in front.
Every line is networkx's: the full rendering holds exactly the lines `networkx.write_graphml`
writes, with the edges in the rendering's unit order (networkx lists them by adjacency). The
preamble holds the XML declaration, every `<key>` the whole graph needs and
`<graph edgedefault="directed">`; each `<node>` and `<edge>` element is a record; the closing is
`</graph></graphml>`. Property keys are named once, in the preamble's `<key>`s, so a record's atoms
are its ids, its type or relation and its property values.

XML 1.0 cannot carry most control characters (U+0000-U+0008, U+000B, U+000C, U+000E-U+001F),
surrogates or U+FFFE/U+FFFF, and an XML parser turns a carriage return in text into a line feed.
So every id, type, relation, key and text value is escaped before networkx sees it: `\\` is
written `\\\\`, and each of those characters (and `\\r`) is written `\\uXXXX` (four lowercase hex
digits); decoding reverses this and refuses any other backslash sequence.

Decoding pre-checks the text with defusedxml (no DTD, no entities, no external references), then
parses it with networkx; any parser exception becomes a FormatError.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence

import defusedxml.ElementTree
import networkx as nx
from networkx.readwrite.graphml import GraphMLWriter

from core.errors import FormatError
from core.formats.base import (
    AtomKind,
    Format,
    Record,
    Rendering,
    Span,
    after_whole_records,
    memo_table,
    nodes_then_edges,
    record_memo,
)
from core.formats.decoding import decoded_graph, expect_string, properties_from
from core.formats.subject_groups import escape_key, unescape_key
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue
from core.graph.units import Unit, edge_keys, node_key

NAME = "graphml"
NAMESPACE = "{http://graphml.graphdrawing.org/xmlns}"
_GRAPH_TAG = '<graph edgedefault="directed"'
_LEAD = "\n    "
_CLOSING = "\n  </graph>\n</graphml>\n"
# Safe on untrusted text (the three below): single classes or a fixed-length escape; _DATA's quantified
# classes each stop at the character that follows them (a quote, a "<").
_ESCAPE = re.compile(r"[\\\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")  # \x0d (\r) is in \x0b-\x1f
_UNESCAPE = re.compile(r"\\(?:\\|u([0-9a-fA-F]{4}))?")
_KEY_TYPES = ("string", "boolean", "int", "long", "integer", "float", "double")
_DATA = re.compile(r'<data key="([^"]*)"(?: />|>([^<]*)</data>)')

GRAMMAR = """\
GraphML (XML). Each <key> maps an id (d0, ...) to an attribute name and type. <node id=...> is a \
node: its "type" data is its type; <edge source=a target=b> is an edge a --relation--> b, \
"relation" data giving the relation. Other data are properties (a key named type or relation, \
or starting with ~, has an extra leading ~). In names and values \\\\ is a backslash and \\uXXXX \
a character XML cannot hold."""


def escape_text(value: str) -> str:
    """`a\\b` -> `a\\\\b`, `\\x00` -> `\\u0000`, `\\r` -> `\\u000d`; other text is unchanged."""
    return _ESCAPE.sub(lambda match: "\\\\" if match.group() == "\\" else f"\\u{ord(match.group()):04x}", value)


def unescape_text(value: str, where: str) -> str:
    def replace(match: re.Match) -> str:
        if match.group() == "\\\\":
            return "\\"
        if match.group(1) is None:
            raise FormatError(f"unknown escape {value[match.start():match.start() + 2]!r} in {value!r:.60}", where,
                              "write \\\\ for a backslash and \\uXXXX for a character XML cannot hold")
        return chr(int(match.group(1), 16))

    return _UNESCAPE.sub(replace, value)


def _attributes(reserved: str, value: str, properties: Properties) -> dict[str, PropertyValue]:
    attributes: dict[str, PropertyValue] = {reserved: escape_text(value)}
    for key, item in properties:
        name = escape_text(escape_key(key, (reserved,)))
        attributes[name] = escape_text(item) if isinstance(item, str) else item
    return attributes


def _network(graph: Graph) -> tuple[nx.MultiDiGraph, dict[str, str]]:
    """The MultiDiGraph to write, and GraphML element id -> unit key."""
    network = nx.MultiDiGraph()
    element_units: dict[str, str] = {}
    for node in graph.nodes:
        network.add_nodes_from([(escape_text(node.id), _attributes("type", node.type, node.properties))])
        element_units["n" + escape_text(node.id)] = node_key(node.id)
    for index, (key, edge) in enumerate(edge_keys(graph)):
        network.add_edges_from([(escape_text(edge.source), escape_text(edge.target), f"e{index}",
                                 _attributes("relation", edge.relation, edge.properties))])
        element_units[f"ee{index}"] = key
    return network, element_units


def _attribute_span(text: str, name: str) -> tuple[int, int]:
    start = text.index(f' {name}="') + len(name) + 3
    return start, text.index('"', start)


def _element_atoms(text: str, kinds: dict[str, AtomKind]) -> tuple[Span, ...]:
    """Atoms of one serialised <node> or <edge>: its id or endpoints, then its data values."""
    names = ("id",) if text.startswith("<node") else ("source", "target")
    spans: list[tuple[int, int, AtomKind]] = [(*_attribute_span(text, name), "node_id") for name in names]
    for match in _DATA.finditer(text):
        if match.group(2):
            spans.append((match.start(2), match.end(2), kinds.get(match.group(1), "property_value")))
    return tuple((start, end, kind) for start, end, kind in sorted(spans) if end > start)


def _document(graph: Graph) -> tuple[str, dict[str, Record]]:
    """The preamble and, per unit key, the record networkx's writer makes for it (without the lead)."""
    network, element_units = _network(graph)
    writer = GraphMLWriter(encoding="utf-8", prettyprint=True)
    writer.add_graph_element(network)
    writer.indent(writer.xml)
    buffer = io.BytesIO()
    ElementTree.ElementTree(writer.xml).write(buffer, encoding="utf-8", xml_declaration=True)
    full = buffer.getvalue().decode("utf-8")
    preamble = full[:full.index(_GRAPH_TAG)] + _GRAPH_TAG + ">"
    kinds: dict[str, AtomKind] = {key_id: ("node_type" if (name, scope) == ("type", "node") else "relation")
                                  for (name, _, scope), key_id in writer.keys.items()
                                  if (name, scope) in (("type", "node"), ("relation", "edge"))}
    records: dict[str, Record] = {}
    for element in writer.xml.find("graph"):
        element.tail = None
        text = ElementTree.tostring(element, encoding="unicode")
        unit = element_units[element.tag[0] + element.get("id")]
        atoms = tuple((start + len(_LEAD), end + len(_LEAD), kind) for start, end, kind in _element_atoms(text, kinds))
        records[unit] = Record(_LEAD + text, (unit,), atoms)
    return preamble, records


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    # kept in the graph's memo (so the memo policy bounds it), not in a cache that would hold 16 graphs alive
    preamble, records = memo_table(record_memo(graph, NAME), "document", lambda: _document(graph))
    chosen = tuple(records[unit.key] for unit in nodes_then_edges(units))
    return Rendering(NAME, preamble, chosen, (_CLOSING,) * (len(chosen) + 1))


# ---------------------------------------------------------------------------------------------- decoding

def _check_elements(root: ElementTree.Element) -> None:
    """What networkx would read silently wrong: missing ids and endpoints, repeated ids."""
    if root.tag != NAMESPACE + "graphml":
        raise FormatError(f"the root element is {root.tag!r:.80}, not graphml", "document",
                          'start with <graphml xmlns="http://graphml.graphdrawing.org/xmlns">')
    for key in root.iter(NAMESPACE + "key"):
        if key.get("attr.name") is None or key.get("attr.type") not in _KEY_TYPES or key.get("yfiles.type"):
            raise FormatError("a <key> lacks attr.name or a GraphML attr.type", f"key {key.get('id')!r:.60}",
                              f"give every key attr.name and one of attr.type {', '.join(_KEY_TYPES)}")
    if next(root.iter(NAMESPACE + "port"), None) is not None:
        raise FormatError("the document uses ports", "<port>", "connect edges to nodes, without ports")
    graphs = root.findall(NAMESPACE + "graph")
    if len(graphs) != 1:
        raise FormatError(f"the document holds {len(graphs)} graphs", "document", "write exactly one <graph>")
    node_ids: set[str] = set()
    for node in graphs[0].iter(NAMESPACE + "node"):
        node_id = node.get("id")
        if node_id is None or node_id in node_ids:
            raise FormatError("a node has no id" if node_id is None else f"node id {node_id!r:.60} is repeated",
                              f"node {node_id!r:.60}", "give every <node> its own id")
        node_ids.add(node_id)
    edge_ids: set[str] = set()
    for edge in graphs[0].iter(NAMESPACE + "edge"):
        if edge.get("source") is None or edge.get("target") is None:
            raise FormatError("an edge has no source or target", f"edge {edge.get('id')!r:.60}",
                              "give every <edge> a source and a target")
        edge_id = edge.get("id")
        if edge_id is None:
            continue
        if edge_id in edge_ids:
            raise FormatError(f"edge id {edge_id!r:.60} is repeated", f"edge {edge_id!r:.60}",
                              "give every <edge> its own id")
        edge_ids.add(edge_id)


def _parse(text: str) -> nx.MultiDiGraph:
    try:
        _check_elements(defusedxml.ElementTree.fromstring(text, forbid_dtd=True))
        network = nx.parse_graphml(text, force_multigraph=True)
    except FormatError:
        raise
    except ElementTree.ParseError as error:
        line, column = error.position
        raise FormatError(f"invalid XML: {error}", f"line {line} column {column + 1}",
                          "check the tags, quotes and escapes", line=line) from None
    except Exception as error:  # networkx and defusedxml raise many kinds; all mean "not our GraphML"
        raise FormatError(f"invalid GraphML: {type(error).__name__}: {str(error)[:120]}", "document",
                          "see the format's grammar") from None
    if not network.is_directed():
        raise FormatError("the graph is undirected", "<graph>", 'write <graph edgedefault="directed">')
    if network.graph.get("node_default") or network.graph.get("edge_default"):
        raise FormatError("a <key> has a default value", "<key>",
                          "write every value on its node or edge, without <default>")
    return network


def _split(data: dict, reserved: str, where: str) -> tuple[str | None, Properties]:
    """(the reserved attribute's text, the properties) of a node's or an edge's data."""
    head = data.get(reserved)
    properties: dict[str, PropertyValue] = {}
    for name, value in data.items():
        if name == reserved:
            continue
        key = unescape_key(unescape_text(expect_string(name, where), where))
        properties[key] = unescape_text(value, where) if isinstance(value, str) else value
    text = None if head is None else unescape_text(expect_string(head, f"{where} {reserved}"), where)
    return text, properties_from(properties, where)


def decode(text: str) -> Graph:
    network = _parse(text)
    nodes = []
    for element_id, data in network.nodes(data=True):
        where = f"node {element_id!r:.60}"
        node_type, properties = _split(data, "type", where)
        if node_type is None:
            if data:
                raise FormatError("a node has data but no type", where, 'give it a "type" data element')
            continue  # an endpoint without its node element: decoded as a node of unknown type
        nodes.append(Node(unescape_text(element_id, where), node_type, properties))
    edges = []
    for source, target, element_id, data in network.edges(keys=True, data=True):
        where = f"edge {element_id!r:.60}"
        relation, properties = _split(data, "relation", where)
        if relation is None:
            raise FormatError("an edge has no relation", where, 'give it a "relation" data element')
        edges.append(Edge(unescape_text(source, where), relation, unescape_text(target, where), properties))
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="GraphML (networkx)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='<edge source="svc-api" target="svc-auth" id="e0"><data key="d1">depends_on</data></edge>',
    interleaves=False,
    # A raw cut is XML without its closing tags: the parser fails in the tail, with the whole records'
    # elements closed before it, so the tail beside blank lines (XML's line breaks kept) fails alike.
    tail_start=after_whole_records,
    line_breaks="\n\r",
)
