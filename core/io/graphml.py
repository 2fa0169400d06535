"""GraphML: read typed property graphs safely (no DTD, no entities, no fetching) and write them back.

Reading: the node type comes from one node attribute (`labelV`, `type` or `label`, whichever the
file declares first, or the one chosen), the relation from one edge attribute (`labelE`,
`relation` or `label`); every other attribute is a property with its declared type (boolean,
int/long, float/double, string). Keys' <default> values apply. Edge ids are not kept: an edge is its
endpoints, relation and properties. An undirected graph (edgedefault="undirected", or an edge with
directed="false") gets each edge in both directions, with a notice giving the counts. Nested graphs and hyperedges are refused.
yEd and yFiles graphics (keys with yfiles.type, as yEd desktop writes them, or with y:attr.uri, as
yFiles for HTML and yEd Live do), node ports, and keys for the document or ports (for="graphml",
"port", "hyperedge", "endpoint") are skipped, with one notice (`LoadNotice`) naming what was skipped;
a node with no `label` of its own takes the text of yEd's first node label (y:NodeLabel, or
y:Label.Text / y:Label Text="..."). One key id may be declared for several domains (igraph does);
elements of other XML namespaces (tool extensions) are skipped. Nodes and edges are counted while
the file is parsed, so a file over the count limits is refused as soon as it passes them.

Writing: the type is written as `labelV`, the relation as `labelE`, each property under a key for its
name and type, so the file reads back as the same graph.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field

from core.errors import GraphError, LoadError, LoadNotice
from core.graph.model import Edge, Graph, Node, PropertyValue
from core.io.building import build_graph, check_endpoints, frozen_properties, undirected_notice
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.options import DEFAULT_OPTIONS, LoadOptions
from core.io.xml_check import feed_xml

NAMESPACE = "http://graphml.graphdrawing.org/xmlns"
TYPES = ("boolean", "int", "long", "float", "double", "string")
_FIX_XML = "check that the file is GraphML exported by a graph tool, and that every tag is closed"


@dataclass
class _Element:
    tag: str  # local name, without the namespace
    attributes: dict[str, str]
    line: int
    foreign: bool = False  # in another XML namespace than GraphML's: an extension, not graph content
    children: list[_Element] = field(default_factory=list)
    text_parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.text_parts)


@dataclass(frozen=True)
class _Key:
    id: str
    domain: str  # node, edge, graph, all, or a skipped one (graphml, port, hyperedge, endpoint)
    name: str
    type: str
    default: str | None
    graphics: bool  # a yEd key: markup inside <data>, skipped


class _TreeBuilder:
    """An ElementTree parser target that keeps line numbers and refuses deep nesting as it goes."""

    def __init__(self, limits: Limits, source: str) -> None:
        self.limits = limits
        self.source = source
        self.stack: list[_Element] = []
        self.root: _Element | None = None
        self.line = lambda: 0
        self.counts = {"node": 0, "edge": 0}

    def start(self, tag: str, attributes: dict[str, str]) -> None:
        self.limits.check_depth(len(self.stack) + 1, self.source, f"line {self.line()}")
        namespace, _, local = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
        element = _Element(local, dict(attributes), self.line(), foreign=namespace not in ("", NAMESPACE))
        if local in self.counts and not element.foreign:
            self.counts[local] += 1
            self.limits.check_counts(self.counts["node"], self.counts["edge"], f"{self.source}, line {self.line()}")
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.root = element
        self.stack.append(element)

    def end(self, tag: str) -> None:
        self.stack.pop()

    def data(self, text: str) -> None:
        if self.stack:
            self.stack[-1].text_parts.append(text)

    def close(self) -> _Element | None:
        return self.root


def _parse_xml(data: bytes, source: str, limits: Limits) -> _Element:
    builder = _TreeBuilder(limits, source)
    try:
        root = feed_xml(builder, data, source, _FIX_XML)
    except LoadError:
        raise
    except (ValueError, KeyError, AttributeError, IndexError, TypeError, RecursionError) as error:
        raise LoadError(f"the XML cannot be read: {type(error).__name__}: {error}"[:300],
                        f"{source}, line {builder.line()}", _FIX_XML) from None
    if root is None:
        raise LoadError("the file holds no XML element", source, "export the graph as GraphML again")
    return root


def parse_graphml(data: bytes, *, source: str = "graph.graphml", options: LoadOptions = DEFAULT_OPTIONS,
                  limits: Limits = DEFAULT_LIMITS) -> Graph:
    """The graph in GraphML `data`; any problem is a LoadError naming the line and element."""
    limits.check_bytes(len(data), source)
    if not bytes(data).strip():
        raise LoadError("the file is empty", source, "choose the GraphML file itself (it starts with <?xml or <graphml>)")
    root = _parse_xml(data, source, limits)
    if root.tag != "graphml":
        raise LoadError(f"the root element is <{root.tag}>, not <graphml>", f"{source}, line {root.line}",
                        "load a GraphML file, or name the file's format")
    keys = _read_keys(root, source)
    graph_element = _single_graph(root, source)
    reader = _GraphReader(keys, source, options, limits)
    reader.read(graph_element)
    check_endpoints(reader.edges, {node.id for node in reader.nodes}, source, options)
    return build_graph(reader.nodes, [edge for edge, _ in reader.edges], source, options, limits=limits)


DOMAINS = ("node", "edge", "graph", "all")
SKIPPED_DOMAINS = ("graphml", "port", "hyperedge", "endpoint")  # GraphML allows them; nothing here reads them


def _read_keys(root: _Element, source: str) -> dict[tuple[str, str], _Key]:
    """Keys by (id, domain): igraph declares one id for the graph and again for nodes."""
    keys: dict[tuple[str, str], _Key] = {}
    for element in root.children:
        if element.tag != "key" or element.foreign:
            continue
        where = f"{source}, line {element.line}"
        key_id = element.attributes.get("id")
        if key_id is None:
            raise LoadError("a <key> has no id", where, 'give it an id: <key id="..." for="node" ...>')
        domain = element.attributes.get("for", "all")
        if domain not in DOMAINS + SKIPPED_DOMAINS:
            raise LoadError(f"key {key_id!r} is for {domain!r}", where, 'use for="node", "edge", "graph" or "all"')
        if (key_id, domain) in keys:
            raise LoadError(f"the key id {key_id!r} is declared twice for {domain}", where, "give each key its own id")
        graphics = "yfiles.type" in element.attributes or any(
            name.startswith("{http://www.yworks.com/") and name.endswith("}attr.uri") for name in element.attributes)
        value_type = element.attributes.get("attr.type", "string")
        if value_type not in TYPES and not graphics and domain in DOMAINS:
            raise LoadError(f"key {key_id!r} declares the unsupported type {value_type!r}", where,
                            f"use one of {', '.join(TYPES)}")
        defaults = [child for child in element.children if child.tag == "default"]
        keys[(key_id, domain)] = _Key(key_id, domain, element.attributes.get("attr.name", key_id), value_type,
                                      defaults[0].text if defaults else None, graphics)
    return keys


_YED_LABELS = ("NodeLabel", "Label.Text")  # yEd desktop's <y:NodeLabel>, yFiles 3's <y:Label.Text>


def _yed_label(data: _Element) -> str | None:
    """The text of the first node label inside a yEd/yFiles <data> element (without its layout children)."""
    pending = list(reversed(data.children))
    while pending:  # depth-first, in document order, without recursion (the depth limit still applies)
        element = pending.pop()
        if element.foreign and element.tag in _YED_LABELS:
            text = "".join(element.text_parts).strip()
            if text:
                return text
        if element.foreign and element.tag == "Label" and element.attributes.get("Text", "").strip():
            return element.attributes["Text"].strip()
        pending.extend(reversed(element.children))
    return None


def _single_graph(root: _Element, source: str) -> _Element:
    graphs = [child for child in root.children if child.tag == "graph" and not child.foreign]
    if len(graphs) != 1:
        raise LoadError(f"the file holds {len(graphs)} <graph> elements", f"{source}, line {root.line}",
                        "keep exactly one <graph> inside <graphml>")
    return graphs[0]


class _GraphReader:
    def __init__(self, keys: dict[tuple[str, str], _Key], source: str, options: LoadOptions, limits: Limits) -> None:
        self.keys = keys
        self.source = source
        self.options = options
        self.limits = limits
        self.type_attribute = options.node_type_from(key.name for key in keys.values() if key.domain in ("node", "all"))
        self.relation_attribute = options.relation_from(key.name for key in keys.values() if key.domain in ("edge", "all"))
        self.nodes: list[Node] = []
        self.edges: list[tuple[Edge, str]] = []
        self.skipped_keys: dict[str, None] = {}  # names of graphics keys whose data was skipped, in order
        self.skipped_ports = 0
        self.yed_labels = 0
        self.edge_elements = self.undirected = self.undirected_arcs = 0  # for the notice on undirected edges

    def read(self, graph_element: _Element) -> None:
        edge_default = graph_element.attributes.get("edgedefault", "directed")
        if edge_default not in ("directed", "undirected"):
            raise LoadError(f"edgedefault is {edge_default!r}", f"{self.source}, line {graph_element.line}",
                            'use edgedefault="directed" or "undirected"')
        for element in graph_element.children:
            if element.foreign:
                continue
            if element.tag == "node":
                self.nodes.append(self._node(element))
            elif element.tag == "edge":
                self._add_edge(element, edge_default == "directed")
                self.edge_elements += 1
            elif element.tag == "key":
                raise LoadError("a <key> is declared inside <graph>", f"{self.source}, line {element.line}",
                                "declare every <key> directly inside <graphml>, before the <graph>")
            elif element.tag not in ("data", "desc"):
                raise LoadError(f"<{element.tag}> is not supported", f"{self.source}, line {element.line}",
                                "keep only <node> and <edge> elements in the <graph> (no hyperedges)")
        self._notice()
        undirected_notice(self.source, self.undirected, self.undirected_arcs,
                          f'edgedefault="{edge_default}"' if edge_default == "undirected" else 'directed="false"',
                          of_all=self.edge_elements)

    def _notice(self) -> None:
        """One line naming the yEd/yFiles data and ports skipped, and the labels taken from yEd's own."""
        if not self.skipped_keys and not self.skipped_ports:
            return
        parts = []
        if self.skipped_keys:
            parts.append(f"yEd/yFiles graphics data ({', '.join(list(self.skipped_keys)[:8])}"
                         f"{', ...' if len(self.skipped_keys) > 8 else ''})")
        if self.skipped_ports:
            parts.append(f"{self.skipped_ports:,} node port{'s' if self.skipped_ports != 1 else ''}")
        labels = f"; {self.yed_labels:,} node labels taken from yEd's node labels" if self.yed_labels else ""
        warnings.warn(LoadNotice(f"{self.source}: skipped {' and '.join(parts)}{labels}"), stacklevel=2)

    def _where(self, element: _Element, label: str) -> str:
        return f"line {element.line}, {label}"

    def _node(self, element: _Element) -> Node:
        node_id = element.attributes.get("id")
        if node_id is None:
            raise LoadError("a <node> has no id", f"{self.source}, line {element.line}",
                            'give every node an id: <node id="...">')
        where = self._where(element, f"node {node_id[:80]!r}")
        self.limits.check_string(node_id, self.source, where)
        values, label = self._values(element, "node", self.type_attribute, where)
        properties = frozen_properties(values, self.source, where)
        return Node(node_id, self.options.default_node_type if label is None else label, properties)

    def _add_edge(self, element: _Element, directed_default: bool) -> None:
        source, target = element.attributes.get("source"), element.attributes.get("target")
        if source is None or target is None:
            raise LoadError("an <edge> lacks its source or target", f"{self.source}, line {element.line}",
                            'write <edge source="..." target="...">')
        where = self._where(element, f"edge {source[:80]!r} -> {target[:80]!r}")
        directed = element.attributes.get("directed", "true" if directed_default else "false")
        if directed not in ("true", "false"):
            raise LoadError(f"directed is {directed!r}", f"{self.source}, {where}", 'use directed="true" or "false"')
        values, label = self._values(element, "edge", self.relation_attribute, where)
        edge = Edge(source, self.options.default_relation if label is None else label, target,
                    frozen_properties(values, self.source, where))
        self.edges.append((edge, where))
        if directed == "false":
            self.undirected += 1
            self.undirected_arcs += 1
            if source != target:
                self.edges.append((Edge(target, edge.relation, source, edge.properties), where))
                self.undirected_arcs += 1

    def _values(self, element: _Element, domain: str, label_attribute: str | None,
                where: str) -> tuple[list[tuple[str, PropertyValue]], str | None]:
        """The element's properties (defaults applied) and the text of its type or relation attribute."""
        values: list[tuple[str, PropertyValue]] = []
        label: str | None = None
        given: set[str] = set()  # attribute names given by <data> (two keys may share a name)
        yed_label: str | None = None
        for child in element.children:
            if child.tag == "desc" or child.foreign:
                continue
            if child.tag == "port" and domain == "node":
                self.skipped_ports += 1
                continue
            if child.tag != "data":
                raise LoadError(f"<{child.tag}> inside <{domain}> is not supported", f"{self.source}, line {child.line}",
                                f"keep only <data> elements inside a <{domain}> (no nested graphs or ports)")
            key = self._key(child, domain, where)
            if key.graphics:
                self.skipped_keys[key.name if key.name != key.id else key.id] = None
                if domain == "node" and yed_label is None:
                    yed_label = _yed_label(child)
                continue
            if child.children:
                raise LoadError(f"<data key={key.id!r}> holds markup, not a value", f"{self.source}, line {child.line}",
                                "write a plain value inside <data>")
            self.limits.check_string(child.text, self.source, where)
            if key.name == label_attribute and key.name in given:
                raise LoadError(f"the {domain} gives {key.name!r} twice (through two keys of that name)",
                                f"{self.source}, line {child.line}", f"give the {domain} one {key.name!r}")
            given.add(key.name)
            if key.name == label_attribute:
                label = child.text
            else:
                values.append((key.name, _converted(child.text, key, self.source, f"line {child.line}")))
        for key in self.keys.values():
            if key.domain in (domain, "all") and key.default is not None and key.name not in given and not key.graphics:
                given.add(key.name)
                if key.name == label_attribute:
                    label = key.default
                else:
                    values.append((key.name, _converted(key.default, key, self.source, f"default of key {key.id!r}")))
        if yed_label is not None and "label" not in given:
            self.limits.check_string(yed_label, self.source, where)
            values.append(("label", yed_label))
            self.yed_labels += 1
        return values, label

    def _key(self, data: _Element, domain: str, where: str) -> _Key:
        key_id = data.attributes.get("key")
        if key_id is None:
            raise LoadError("a <data> element has no key", f"{self.source}, line {data.line}",
                            'name its declared key: <data key="...">')
        key = self.keys.get((key_id, domain)) or self.keys.get((key_id, "all"))
        if key is not None:
            return key
        declared = [key.domain for (known_id, _), key in self.keys.items() if known_id == key_id]
        if declared:
            raise LoadError(f"key {key_id!r} is declared for {' and '.join(name + 's' for name in declared)} "
                            f"but used on a {domain}", f"{self.source}, {where}",
                            f'declare it with for="{domain}" or for="all"')
        raise LoadError(f"<data key={key_id!r}> uses a key that is not declared", f"{self.source}, line {data.line}",
                        f'declare it: <key id="{key_id}" for="{domain}" attr.name="..." attr.type="string"/>')


# Run on untrusted values (up to the string length limit). Safe: adjacent pieces never match the same
# character, and each is possessive, so a failed fullmatch is linear. `[0-9]+\.?[0-9]*` (the earlier
# spelling) split a digit run every way: 20,000 digits and an "x" took 14 s.
_INTEGER = re.compile(r"\s*+[+-]?+[0-9]++\s*+")
_FLOAT = re.compile(r"\s*+[+-]?+(?:[0-9]++(?:\.[0-9]*+)?+|\.[0-9]++)(?:[eE][+-]?+[0-9]++)?+\s*+")
_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


def _converted(text: str, key: _Key, source: str, where: str) -> PropertyValue:
    """A <data> text as its key's declared type."""
    if key.type == "string":
        return text
    if key.type == "boolean" and text.strip().lower() in _BOOLEANS:
        return _BOOLEANS[text.strip().lower()]
    if key.type in ("int", "long") and _INTEGER.fullmatch(text) and len(text) < 4000:  # int() refuses longer
        return int(text)
    if key.type in ("float", "double") and _FLOAT.fullmatch(text) and math.isfinite(float(text)):
        return float(text)
    raise LoadError(f"{key.name!r} is declared {key.type} but holds {text[:60]!r}", f"{source}, {where}",
                    f"write a value of type {key.type}, or declare the key attr.type=\"string\"")


# --- writing ---------------------------------------------------------------------------------------

# Safe on any text: a single character class.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_TEXT_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"}
_ATTRIBUTE_ESCAPES = {**_TEXT_ESCAPES, '"': "&quot;", "\n": "&#10;", "\t": "&#9;"}


def _escaped(text: str, escapes: dict[str, str]) -> str:
    found = _NOT_XML.search(text)
    if found:
        raise GraphError(f"the text {text[:40]!r} holds the character U+{ord(found.group()):04X}, "
                         "which XML 1.0 cannot hold", "GraphML export",
                         "export this graph as node-link JSON or one of the project's formats")
    return "".join(escapes.get(char, char) for char in text)


def _graphml_type(value: PropertyValue) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _value_text(value: PropertyValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def write_graphml(graph: Graph, *, node_type_attribute: str = "labelV", relation_attribute: str = "labelE") -> str:
    """GraphML text that `parse_graphml` reads back as the same graph (GraphError if XML cannot hold a value)."""
    _refuse_clash(graph, node_type_attribute, relation_attribute)
    node_keys = _property_keys((node.properties for node in graph.nodes), "n")
    edge_keys = _property_keys((edge.properties for edge in graph.edges), "e")
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<graphml xmlns="{NAMESPACE}">',
             f'  <key id="labelV" for="node" attr.name="{_escaped(node_type_attribute, _ATTRIBUTE_ESCAPES)}" '
             'attr.type="string"/>',
             f'  <key id="labelE" for="edge" attr.name="{_escaped(relation_attribute, _ATTRIBUTE_ESCAPES)}" '
             'attr.type="string"/>']
    for domain, keys in (("node", node_keys), ("edge", edge_keys)):
        for (name, value_type), key_id in keys.items():
            lines.append(f'  <key id="{key_id}" for="{domain}" attr.name="{_escaped(name, _ATTRIBUTE_ESCAPES)}" '
                         f'attr.type="{value_type}"/>')
    lines.append('  <graph id="G" edgedefault="directed">')
    for node in graph.nodes:
        lines.append(f'    <node id="{_escaped(node.id, _ATTRIBUTE_ESCAPES)}">'
                     f'{_data("labelV", node.type)}{_properties_data(node.properties, node_keys)}</node>')
    for edge in graph.edges:
        lines.append(f'    <edge source="{_escaped(edge.source, _ATTRIBUTE_ESCAPES)}" '
                     f'target="{_escaped(edge.target, _ATTRIBUTE_ESCAPES)}">'
                     f'{_data("labelE", edge.relation)}{_properties_data(edge.properties, edge_keys)}</edge>')
    lines += ["  </graph>", "</graphml>", ""]
    return "\n".join(lines)


def _refuse_clash(graph: Graph, node_type_attribute: str, relation_attribute: str) -> None:
    for items, name, kind in (((node.properties for node in graph.nodes), node_type_attribute, "node"),
                              ((edge.properties for edge in graph.edges), relation_attribute, "edge")):
        if any(key == name for properties in items for key, _ in properties):
            raise GraphError(f"a {kind} property is named {name!r}, the attribute that holds the {kind}'s "
                             f"{'type' if kind == 'node' else 'relation'}", "GraphML export",
                             "export with another attribute name, or as node-link JSON")


def _property_keys(all_properties, prefix: str) -> dict[tuple[str, str], str]:
    names = sorted({(key, _graphml_type(value)) for properties in all_properties for key, value in properties})
    return {name: f"{prefix}{index}" for index, name in enumerate(names)}


def _data(key_id: str, text: str) -> str:
    return f'<data key="{key_id}">{_escaped(text, _TEXT_ESCAPES)}</data>'


def _properties_data(properties, keys: dict[tuple[str, str], str]) -> str:
    return "".join(_data(keys[(key, _graphml_type(value))], _value_text(value)) for key, value in properties)
