"""xml: a generic graph XML of the lab's own, one element per node or edge on its own line.

    <graph>
    <node id="svc-api" type="service"/>
    <node id="db" type="database"><property key="tier" type="integer">1</property></node>
    <edge source="svc-api" relation="depends_on" target="svc-auth"/>
    </graph>

Properties are <property> children: text by default, `type` integer, double or boolean otherwise.
Names and values are first escaped as in `graphml` (`\\\\` for a backslash, `\\uXXXX` for a
character XML 1.0 cannot hold, and for a carriage return), then for XML: `&amp;`, `&lt;`, `&gt;`,
`&quot;`, `&#9;` and `&#10;` (a parser would turn a raw tab or line break in an attribute into a
space; in element text too, so that each element stays on one line). The decoder reads this one-element-per-line subset itself, resolving only
XML's predefined and numeric character references (never a DTD or entity); the tests check that
defusedxml's parser reads the same elements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, RecordText, Rendering, record_memo
from core.formats.decoding import decoded_graph, properties_from
from core.formats.graphml import escape_text, unescape_text
from core.formats.grouping import split_lines
from core.formats.turtle import literal
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue
from core.graph.units import Unit

NAME = "xml"
PREAMBLE = "<graph>"
CLOSING = "\n</graph>\n"
_ATTRIBUTE = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;"}
_TYPES = {bool: "boolean", int: "integer", float: "double"}

GRAMMAR = """\
XML. <node id="ID" type="TYPE"/> is a node; <edge source="A" relation="REL" target="B"/> is an \
edge A --REL--> B. <property key="K">value</property> children are properties (type="integer", \
"double" or "boolean" when not text). In names and values \\\\ is a backslash and \\uXXXX a \
character XML cannot hold."""


def attribute_text(value: str) -> str:
    return "".join(_ATTRIBUTE.get(char, char) for char in escape_text(value))


def content_text(value: str) -> str:
    """Element text: escaped like an attribute, so that a line break stays a reference and the element one line."""
    return attribute_text(value)


def _add_properties(record: RecordText, properties: Properties) -> None:
    for key, value in properties:
        record.add('<property key="').add(attribute_text(key), "property_key").add('"')
        kind = _TYPES.get(type(value))
        record.add(f' type="{kind}">' if kind else ">")
        record.add(content_text(value) if isinstance(value, str) else literal(value), "property_value").add("</property>")


def _record(unit: Unit):
    record = RecordText().add("\n")
    if unit.is_node:
        node, tag = unit.node, "node"
        record.add('<node id="').add(attribute_text(node.id), "node_id")
        record.add('" type="').add(attribute_text(node.type), "node_type").add('"')
        properties = node.properties
    else:
        edge, tag = unit.edge, "edge"
        record.add('<edge source="').add(attribute_text(edge.source), "node_id")
        record.add('" relation="').add(attribute_text(edge.relation), "relation")
        record.add('" target="').add(attribute_text(edge.target), "node_id").add('"')
        properties = edge.properties
    if not properties:
        return record.add("/>").build(unit.key)
    record.add(">")
    _add_properties(record, properties)
    return record.add(f"</{tag}>").build(unit.key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)
    records = []
    for unit in units:
        record = memo.get(unit.key)
        if record is None:
            record = memo[unit.key] = _record(unit)
        records.append(record)
    return Rendering(NAME, PREAMBLE, tuple(records), (CLOSING,) * (len(records) + 1))


# ---------------------------------------------------------------------------------------------- decoding

_VALUE = r'"([^"<&]*(?:&[^"<&]*)*)"'
_NODE = re.compile(rf"<node id={_VALUE} type={_VALUE}(/>|>)")
_EDGE = re.compile(rf"<edge source={_VALUE} relation={_VALUE} target={_VALUE}(/>|>)")
_PROPERTY = re.compile(rf'<property key={_VALUE}(?: type="(integer|double|boolean)")?>([^<]*)</property>')
_REFERENCE = re.compile(r"&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9A-Fa-f]{1,6}));|&")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
# Characters XML 1.0 cannot hold raw (a parser refuses them), besides the surrogates Python strings here never hold
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_FIX = "write one element per line, as the format's grammar shows, between <graph> and </graph>"


def _resolved(text: str, line: int, where: str) -> str:
    """The text with its character references resolved, then the lab's backslash escapes undone."""
    def replace(match: re.Match) -> str:
        if match.group() == "&":
            raise FormatError("a bare & in the text", f"line {line}", "write &amp;", line=line)
        if match.group(1):
            return _NAMED[match.group(1)]
        code = int(match.group(2)) if match.group(2) else int(match.group(3), 16)
        if code > 0x10FFFF or _NOT_XML.match(chr(code)) or 0xD800 <= code <= 0xDFFF or code == 0:
            raise FormatError(f"the character reference {match.group()} is not an XML character", f"line {line}",
                              "write \\uXXXX for a character XML cannot hold", line=line)
        return chr(code)

    return unescape_text(_REFERENCE.sub(replace, text) if "&" in text else text, where)


def _value(kind: str | None, text: str, line: int) -> PropertyValue:
    where = f"line {line}"
    if kind is None:
        return _resolved(text, line, where)
    if kind == "boolean" and text in ("true", "false"):
        return text == "true"
    if kind == "integer" and re.fullmatch(r"-?[0-9]+", text):
        try:
            return int(text)
        except ValueError:
            raise FormatError(f"the integer {text[:20]}... has too many digits", where,
                              "write integers with at most 4300 digits, or as text", line=line) from None
    if kind == "double" and re.fullmatch(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?", text):
        number = float(text)
        if number not in (float("inf"), float("-inf")):
            return number
    raise FormatError(f"{text[:40]!r} is not a {kind}", where, "write the value as its type's literal", line=line)


def _element(line: str, number: int, nodes: list[Node], edges: list[Edge]) -> None:
    where = f"line {number}"
    found = _NODE.match(line) or _EDGE.match(line)
    if found is None:
        raise FormatError(f"unexpected element {line[:40]!r}", where, _FIX, line=number)
    position = found.end()
    properties: dict[str, PropertyValue] = {}
    tag = "node" if line.startswith("<node") else "edge"
    if found.group(found.re.groups) == ">":
        while not line.startswith(f"</{tag}>", position):
            item = _PROPERTY.match(line, position)
            if item is None:
                raise FormatError(f"expected <property> or </{tag}>, found {line[position:position + 20]!r}",
                                  f"{where}, column {position + 1}", _FIX, line=number)
            key = _resolved(item.group(1), number, where)
            if key in properties:
                raise FormatError(f"the property {key!r:.40} is given twice", where, "give each key once", line=number)
            properties[key] = _value(item.group(2), item.group(3), number)
            position = item.end()
        position += len(f"</{tag}>")
        if not properties:
            raise FormatError(f"an empty <{tag}>...</{tag}>", where, f"write <{tag} .../>", line=number)
    if position != len(line):
        raise FormatError(f"unexpected text {line[position:position + 20]!r}", f"{where}, column {position + 1}",
                          _FIX, line=number)
    names = [_resolved(found.group(index), number, where) for index in range(1, found.re.groups)]
    frozen = properties_from(properties, where)
    if tag == "node":
        nodes.append(Node(names[0], names[1], frozen))
    else:
        edges.append(Edge(names[0], names[1], names[2], frozen))


def decode(text: str) -> Graph:
    lines = split_lines(text.removesuffix("\n"))
    bad = _NOT_XML.search(text)
    if bad is not None:
        where = text.count("\n", 0, bad.start()) + 1
        raise FormatError(f"the character U+{ord(bad.group()):04X} cannot stand in XML", f"line {where}",
                          "write it as \\uXXXX", line=where)
    if lines[0][1] != PREAMBLE or len(lines) < 2 or lines[-1][1] != CLOSING.strip():
        raise FormatError("the document is not <graph> ... </graph>, one element per line", "line 1", _FIX, line=1)
    nodes: list[Node] = []
    edges: list[Edge] = []
    for number, line in lines[1:-1]:
        _element(line, number, nodes, edges)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Graph XML",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='<edge source="svc-api" relation="depends_on" target="svc-auth"/>',
)
