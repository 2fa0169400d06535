"""dot: Graphviz DOT, one statement per node or edge, type and relation as attributes.

    digraph {
      "svc-api" [type=service];
      "svc-api" -> "svc-auth" [relation=depends_on];
    }

An id is bare when it is a DOT identifier (letters, digits, `_`, not starting with a digit, not a
DOT keyword) and a quoted string otherwise. In quoted strings `\\\\` is a backslash, `\\"` a quote,
`\\n` and `\\r` a line feed and a carriage return. Property values keep their types: a quoted or bare
identifier is text (the texts `true` and `false` are always quoted), bare `true`/`false` are
booleans, a bare numeral without `.` an integer and with `.` a double (written as the exact decimal
of its shortest digits, since DOT numerals have no exponent). A property named `type` on a node,
`relation` on an edge, `name`, `obj_dict`, `src` or `dst` (pydot's own parameters), or starting with `~`, gets one more `~` in front. The decoder reads this
subset of DOT itself; the tests check that pydot reads the same statements and attributes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, record_memo
from core.formats.decoding import decoded_graph, properties_from
from core.formats.grouping import split_lines
from core.formats.subject_groups import escape_key, unescape_key
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue
from core.graph.units import Unit

NAME = "dot"
PREAMBLE = "digraph {\n"
CLOSING = "}\n"
KEYWORDS = frozenset({"node", "edge", "graph", "digraph", "subgraph", "strict"})
# Attribute names pydot passes to its Node and Edge constructors as keyword arguments beside their own
# parameters (it fails on a node attribute `name`): escaped with a leading ~ like `type`, so pydot reads them.
_PYDOT_KEYS = frozenset({"name", "obj_dict", "src", "dst"})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", '"': '"', "n": "\n", "r": "\r"}

GRAMMAR = """\
Graphviz DOT. `ID [type=TYPE];` is a node; `A -> B [relation=REL];` is an edge A --REL--> B; \
other attributes are properties (bare true/false are booleans, bare numbers are numbers, \
everything else text). A property named type, relation, name, obj_dict, src or dst or starting with ~ has an extra leading ~. \
In quoted strings \\\\ is a backslash, \\" a quote, \\n and \\r line breaks."""


def dot_id(value: str) -> str:
    """A name as DOT writes it: bare when it is a plain identifier, else a quoted string."""
    if _IDENTIFIER.match(value) and value.lower() not in KEYWORDS:
        return value
    return '"' + "".join(_ESCAPES.get(char, char) for char in value) + '"'


def dot_key(key: str, reserved: str) -> str:
    """A property name as DOT writes it (see _PYDOT_KEYS)."""
    return dot_id(escape_key(key, (reserved, *_PYDOT_KEYS)))


def dot_value(value: PropertyValue) -> str:
    """A property value as DOT writes it, its type readable from the text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if "e" in text:
            text = format(Decimal(text), "f")
        return text if "." in text else text + ".0"
    if value in ("true", "false"):
        return f'"{value}"'
    return dot_id(value)


def _add_attributes(record: RecordText, head: str, value: str, kind, reserved: str, properties: Properties) -> None:
    record.add(f" [{head}=").add(dot_id(value), kind)
    for key, item in properties:
        record.add(", ").add(dot_key(key, reserved), "property_key").add("=")
        record.add(dot_value(item), "property_value")
    record.add("];\n")


def _record(unit: Unit) -> Record:
    record = RecordText().add("  ")
    if unit.is_node:
        node = unit.node
        record.add(dot_id(node.id), "node_id")
        _add_attributes(record, "type", node.type, "node_type", "type", node.properties)
    else:
        edge = unit.edge
        record.add(dot_id(edge.source), "node_id").add(" -> ").add(dot_id(edge.target), "node_id")
        _add_attributes(record, "relation", edge.relation, "relation", "relation", edge.properties)
    return record.build(unit.key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a statement depends on its unit only
    records = []
    for unit in units:
        record = memo.get(unit.key)
        if record is None:
            record = memo[unit.key] = _record(unit)
        records.append(record)
    return Rendering(NAME, PREAMBLE, tuple(records), (CLOSING,) * (len(records) + 1))


# ---------------------------------------------------------------------------------------------- decoding

_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMERAL = re.compile(r"-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)")
_FIX = 'write `ID [type=TYPE];` or `A -> B [relation=REL];`, one statement per line, inside "digraph { ... }"'


class _Reader:
    def __init__(self, text: str, line: int) -> None:
        self.text, self.line, self.position = text, line, 0

    def error(self, what: str) -> FormatError:
        return FormatError(what, f"line {self.line}, column {self.position + 1}", _FIX, line=self.line)

    def take(self, literal: str) -> bool:
        while self.position < len(self.text) and self.text[self.position] in " \t":
            self.position += 1
        if self.text.startswith(literal, self.position):
            self.position += len(literal)
            return True
        return False

    def expect(self, literal: str) -> None:
        if not self.take(literal):
            raise self.error(f"expected {literal!r}, found {self.text[self.position:self.position + 12]!r}")

    def name(self) -> str:
        """An identifier or a quoted string, as text."""
        self.take("")
        quoted = _QUOTED.match(self.text, self.position)
        if quoted:
            self.position = quoted.end()
            return self._unescape(quoted.group(1))
        bare = _BARE.match(self.text, self.position)
        if bare is None or bare.group().lower() in KEYWORDS:
            raise self.error(f"expected a name, found {self.text[self.position:self.position + 12]!r}")
        self.position = bare.end()
        return bare.group()

    def value(self) -> PropertyValue:
        self.take("")
        numeral = _NUMERAL.match(self.text, self.position)
        if numeral:
            self.position = numeral.end()
            text = numeral.group()
            if "." in text:
                return float(text)
            try:
                return int(text)
            except ValueError:
                raise self.error(f"the integer {text[:20]}... has too many digits") from None
        if self.text.startswith(("true", "false"), self.position):
            bare = _BARE.match(self.text, self.position)
            if bare is not None and bare.group() in ("true", "false"):
                self.position = bare.end()
                return bare.group() == "true"
        return self.name()

    def _unescape(self, text: str) -> str:
        if "\\" not in text:
            return text
        parts, index = [], 0
        while index < len(text):
            char = text[index]
            if char == "\\":
                code = text[index + 1]  # the pattern gives every backslash a following character
                if code not in _UNESCAPES:
                    raise self.error(f"unknown escape \\{code}")
                parts.append(_UNESCAPES[code])
                index += 2
            else:
                parts.append(char)
                index += 1
        return "".join(parts)


def _statement(reader: _Reader, nodes: list[Node], edges: list[Edge]) -> None:
    first = reader.name()
    target = reader.name() if reader.take("->") else None
    reader.expect("[")
    head = "type" if target is None else "relation"
    attributes: dict[str, PropertyValue] = {}
    while True:
        key = reader.name()
        reader.expect("=")
        if key in attributes:
            raise reader.error(f"the attribute {key!r:.40} is given twice")
        attributes[key] = reader.name() if key == head else reader.value()
        if not reader.take(","):
            break
    reader.expect("]")
    reader.expect(";")
    if reader.take("") and reader.position < len(reader.text):
        raise reader.error(f"unexpected text {reader.text[reader.position:reader.position + 20]!r}")
    if head not in attributes:
        raise reader.error(f"the statement has no {head} attribute")
    where = f"line {reader.line}"
    named = attributes.pop(head)
    properties = properties_from({unescape_key(key): value for key, value in attributes.items()}, where)
    if target is None:
        nodes.append(Node(first, str(named), properties))
    else:
        edges.append(Edge(first, str(named), target, properties))


def decode(text: str) -> Graph:
    lines = [(number, line) for number, line in split_lines(text) if line.strip()]
    if not lines or lines[0][1].strip() != PREAMBLE.strip():
        raise FormatError("the document does not start with `digraph {`", "line 1", "start with `digraph {`", line=1)
    if len(lines) < 2 or lines[-1][1].strip() != CLOSING.strip():
        number = lines[-1][0]
        raise FormatError("the document does not end with `}`", f"line {number}", "end the graph with `}`",
                          line=number)
    nodes: list[Node] = []
    edges: list[Edge] = []
    for number, line in lines[1:-1]:
        _statement(_Reader(line, number), nodes, edges)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Graphviz DOT",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='"svc-api" -> "svc-auth" [relation=depends_on];',
)
