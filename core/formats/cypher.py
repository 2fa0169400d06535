"""cypher: one Cypher CREATE statement, a pattern per node or edge (ISONGraph's Cypher baseline).

    CREATE (v1:service {id: "svc-api"}),
    (v2:service {id: "svc-auth"}),
    (v1)-[:depends_on]->(v2)

A node's variable is `v` and its position in the graph's canonical node order (the same in every
ordering and cut); its name is the property `id` (a property named `id`, or starting with `~`, gets
one more `~` in front), its type its label, the relation the relationship type. An edge whose
endpoint's node is not among the rendered units creates that endpoint where it is first used,
unlabelled, `(v5 {id: "x"})`, which decodes as a node of unknown type. Labels, relationship types
and property keys are bare when they are identifiers and in backticks otherwise (a backtick
doubled). Strings are double-quoted with `\\\\`, `\\"`, `\\n`, `\\r` and `\\t`, other characters as
they are (FalkorDB keeps a `\\u` escape as written); the decoder also reads `\\uXXXX`; a double is written with its shortest digits and always a `.` or an exponent.
The decoder reads this subset of Cypher itself; the tests run the text on a FalkorDB server.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, RecordText, Rendering, memo_table, nodes_then_edges, record_memo, without_closing
from core.formats.decoding import decoded_graph, properties_from
from core.formats.subject_groups import escape_key, unescape_key
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue
from core.graph.units import Unit

NAME = "cypher"
ID_KEY = "id"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPED = re.compile(r'[\\"\n\r\t]')

GRAMMAR = """\
Cypher. One CREATE statement; (vN:TYPE {id: "NAME", ...}) is a node, (vN)-[:REL {...}]->(vM) an \
edge between the nodes bound to vN and vM; other map entries are properties (a key named id or \
starting with ~ has an extra leading ~). A node pattern without a label is only a name. Backticks \
quote odd names."""


def symbol(name: str) -> str:
    """A label, relationship type or property key: bare when an identifier, else in backticks."""
    return name if _IDENTIFIER.match(name) else "`" + name.replace("`", "``") + "`"


def string(value: str) -> str:
    return '"' + _ESCAPED.sub(lambda match: _STRING_ESCAPES[match.group()], value) + '"'


def value_text(value: PropertyValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value).replace("e+", "e")  # openCypher exponents take no plus sign
    return string(value)


def _add_map(record: RecordText, node_id: str | None, properties: Properties, reserved: tuple[str, ...]) -> None:
    parts = 0
    record.add(" {")
    if node_id is not None:
        record.add(f"{ID_KEY}: ").add(string(node_id), "node_id")
        parts += 1
    for key, value in properties:
        record.add(", " if parts else "").add(symbol(escape_key(key, reserved)), "property_key").add(": ")
        record.add(value_text(value), "property_value")
        parts += 1
    record.add("}")


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)
    numbers = memo_table(memo, "numbers", lambda: {node.id: index for index, node in enumerate(graph.nodes)})
    ordered = nodes_then_edges(units)
    bound = {unit.node.id for unit in ordered if unit.is_node}
    records = []
    for index, unit in enumerate(ordered):
        lead = ",\n" if index else "CREATE "
        if unit.is_node:
            record = memo.get((unit.key, lead))
            if record is None:
                node = unit.node
                text = RecordText().add(f"{lead}(v{numbers[node.id]}:").add(symbol(node.type), "node_type")
                _add_map(text, node.id, node.properties, (ID_KEY,))
                record = memo[unit.key, lead] = text.add(")").build(unit.key)
            records.append(record)
            continue
        edge = unit.edge
        text = RecordText().add(lead)
        for end, (endpoint, arrow) in enumerate(((edge.source, "-[:"), (edge.target, ""))):
            text.add(f"(v{numbers[endpoint]}")
            if endpoint not in bound:  # first use of a node no node pattern names: an unlabelled node
                bound.add(endpoint)
                _add_map(text, endpoint, (), ())
            text.add(")" + arrow)
            if end == 0:
                text.add(symbol(edge.relation), "relation")
                if edge.properties:
                    _add_map(text, None, edge.properties, ())
                text.add("]->")
        records.append(text.build(unit.key))
    return without_closing(NAME, "", records)


# ---------------------------------------------------------------------------------------------- decoding

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BACKTICKED = re.compile(r"`((?:[^`]|``)*)`")
_VARIABLE = re.compile(r"v(0|[1-9][0-9]*)\b")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_NUMBER = re.compile(r"-?(?:[0-9]+\.[0-9]+(?:[eE]-?[0-9]+)?|[0-9]+[eE]-?[0-9]+|[0-9]+)")
_UNESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}
_FIX = 'write CREATE (vN:TYPE {id: "NAME"}), (vN)-[:REL]->(vM), ...'


class _Reader:
    def __init__(self, text: str) -> None:
        self.text, self.position = text, 0

    def error(self, what: str) -> FormatError:
        line = self.text.count("\n", 0, self.position) + 1
        column = self.position - (self.text.rfind("\n", 0, self.position) + 1) + 1
        return FormatError(what, f"line {line}, column {column}", _FIX, line=line)

    def space(self) -> None:
        while self.position < len(self.text) and self.text[self.position].isspace():
            self.position += 1

    def take(self, literal: str) -> bool:
        self.space()
        if self.text.startswith(literal, self.position):
            self.position += len(literal)
            return True
        return False

    def expect(self, literal: str) -> None:
        if not self.take(literal):
            raise self.error(f"expected {literal!r}, found {self.text[self.position:self.position + 12]!r}")

    def match(self, pattern: re.Pattern, what: str) -> re.Match:
        self.space()
        found = pattern.match(self.text, self.position)
        if found is None:
            raise self.error(f"expected {what}, found {self.text[self.position:self.position + 12]!r}")
        self.position = found.end()
        return found

    def symbol(self) -> str:
        self.space()
        if self.text.startswith("`", self.position):
            return self.match(_BACKTICKED, "a name in backticks").group(1).replace("``", "`")
        return self.match(_WORD, "a name").group()

    def value(self) -> PropertyValue:
        self.space()
        if self.text.startswith('"', self.position):
            return self._unescape(self.match(_STRING, "a string").group(1))
        word = _WORD.match(self.text, self.position)
        if word is not None and word.group() in ("true", "false"):
            self.position = word.end()
            return word.group() == "true"
        text = self.match(_NUMBER, "a value").group()
        if "." in text or "e" in text or "E" in text:
            number = float(text)
            if number in (float("inf"), float("-inf")):
                raise self.error(f"the number {text[:20]} is too large")
            return number
        try:
            return int(text)
        except ValueError:
            raise self.error(f"the integer {text[:20]}... has too many digits") from None

    def _unescape(self, text: str) -> str:
        if "\\" not in text:
            return text
        parts, index = [], 0
        while index < len(text):
            if text[index] != "\\":
                parts.append(text[index])
                index += 1
                continue
            code = text[index + 1]
            if code == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[index + 2:index + 6]):
                parts.append(chr(int(text[index + 2:index + 6], 16)))
                index += 6
            elif code in _UNESCAPES:
                parts.append(_UNESCAPES[code])
                index += 2
            else:
                raise self.error(f"unknown escape \\{code}")
        return "".join(parts)

    def map(self) -> dict[str, PropertyValue]:
        found: dict[str, PropertyValue] = {}
        self.expect("{")
        if self.take("}"):
            return found
        while True:
            key = self.symbol()
            self.expect(":")
            if key in found:
                raise self.error(f"the key {key!r:.40} is given twice")
            found[key] = self.value()
            if self.take("}"):
                return found
            self.expect(",")


class _Patterns:
    """Node variables bound so far and what they name."""

    def __init__(self, reader: _Reader) -> None:
        self.reader = reader
        self.names: dict[str, str] = {}
        self.nodes: list[Node] = []
        self.edges: list[Edge] = []

    def node(self, may_label: bool) -> str:
        """A node pattern `(vN...)`; the name it stands for."""
        reader = self.reader
        reader.expect("(")
        variable = reader.match(_VARIABLE, "a node variable vN").group()
        label = reader.symbol() if may_label and reader.take(":") else None
        reader.space()
        entries = reader.map() if reader.text.startswith("{", reader.position) else None
        reader.expect(")")
        if entries is None:
            if label is not None or variable not in self.names:
                raise reader.error(f"{variable} is used before a pattern names it")
            return self.names[variable]
        if variable in self.names:
            raise reader.error(f"{variable} is bound twice")
        node_id = entries.pop(ID_KEY, None)
        if not isinstance(node_id, str):
            raise reader.error(f"the node {variable} has no text id")
        where = f"node {variable}"
        properties = properties_from({unescape_key(key): value for key, value in entries.items()}, where)
        if label is None and properties:
            raise reader.error(f"the unlabelled node {variable} has properties")
        self.names[variable] = node_id
        if label is not None:
            self.nodes.append(Node(node_id, label, properties))
        return node_id

    def pattern(self) -> None:
        reader = self.reader
        start = reader.position
        source = self.node(may_label=True)
        if not reader.take("-[:"):
            return
        relation = reader.symbol()
        reader.space()
        entries = reader.map() if reader.text.startswith("{", reader.position) else {}
        reader.expect("]->")
        target = self.node(may_label=False)
        properties = properties_from({unescape_key(key): value for key, value in entries.items()}, f"edge at offset {start}")
        self.edges.append(Edge(source, relation, target, properties))


def decode(text: str) -> Graph:
    reader = _Reader(text)
    patterns = _Patterns(reader)
    reader.space()
    if reader.position < len(text):
        reader.expect("CREATE ")
        while True:
            patterns.pattern()
            if not reader.take(","):
                break
        reader.space()
        if reader.position < len(text):
            raise reader.error(f"unexpected text {text[reader.position:reader.position + 20]!r}")
    return decoded_graph(patterns.nodes, patterns.edges)


FORMAT = Format(
    name=NAME,
    title="Cypher CREATE",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='(v1)-[:depends_on]->(v2)',
    interleaves=False,
)
