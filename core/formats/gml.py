"""gml: GML as networkx reads it (GraphOmni's GML), nodes numbered, names in labels.

    graph [
      directed 1
      multigraph 1
      node [ id 0 label "svc-api" type "service" ]
      edge [ source 0 target 1 relation "depends_on" ]
    ]

A node's GML id is its position in the graph's canonical node order (stable across orderings and
cuts); its name is the `label`. An edge whose endpoint's node is not among the rendered units
writes that endpoint first as a node without a type, `node [ id 5 label "x" ]`, which decodes as
a node of unknown type (as in every format). A property is `key value` when its name is a plain
GML key that is not one of the reserved words and its value is text, an integer or a real (a real
always has a `.`); otherwise (a boolean, an odd name) it is `property [ key "name" bool 1 ]`, with
`text`, `int`, `real` or `bool` giving the type.

Strings are in double quotes. GML readers unescape HTML character references, which cannot carry
every character exactly, so a backslash is written `\\\\`, control characters, U+007F-U+009F, U+2028, U+2029
and non-characters are written `\\uXXXX` (or `\\UXXXXXXXX`), a whole value `[]` or `()` (networkx reads
those as empty lists) starts with `\\u005b` or `\\u0028`, and then `&` is `&amp;` and `"` `&quot;`.
The decoder reads GML itself; the tests check that `networkx.parse_gml` reads the same graph.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, RecordText, Rendering, memo_table, nodes_then_edges, record_memo
from core.formats.decoding import decoded_graph, properties_from
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue
from core.graph.units import Unit

NAME = "gml"
PREAMBLE = "graph [\n  directed 1\n  multigraph 1\n"
CLOSING = "]\n"
RESERVED = frozenset({"id", "label", "type", "source", "target", "relation", "property", "key", "graph", "node",
                      "edge", "directed", "multigraph", "text", "int", "real", "bool", "INF", "NAN"})
_KEY = re.compile(r"[A-Za-z][0-9A-Za-z_]*\Z")
_NONCHARACTERS = "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
# networkx splits the text with str.splitlines, which also breaks at U+2028 and U+2029
_ESCAPE = re.compile("[\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufdd0-\ufdef" + _NONCHARACTERS + "]")

GRAMMAR = """\
GML. `node [ id N label "NAME" type "TYPE" ]` is a node numbered N; `edge [ source N target M \
relation "REL" ]` is an edge between the nodes numbered N and M. Other `key value` pairs, and \
`property [ key "NAME" text|int|real|bool VALUE ]`, are properties. A node without a type is only \
a name. In strings &amp; &quot; are & and ", \\\\ a backslash, \\uXXXX another character."""


def escape_text(value: str) -> str:
    """A value as it stands between the quotes of a GML string."""
    escaped = _ESCAPE.sub(lambda match: "\\\\" if match.group() == "\\" else
                          (f"\\u{ord(match.group()):04x}" if ord(match.group()) < 0x10000
                           else f"\\U{ord(match.group()):08x}"), value)
    if escaped in ("[]", "()"):
        escaped = f"\\u{ord(escaped[0]):04x}" + escaped[1]
    return escaped.replace("&", "&amp;").replace('"', "&quot;")


_UNESCAPE = re.compile(r"\\(?:(\\)|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))?")


def unescape_text(value: str, where: str) -> str:
    """The inverse of escape_text: character references first (as GML readers do), then the backslashes."""
    return unescape_backslashes(html.unescape(value), where)


def unescape_backslashes(text: str, where: str) -> str:
    """The backslash escapes of a string whose character references a GML reader has already resolved."""

    def replace(match: re.Match) -> str:
        if match.group(1):
            return "\\"
        code = match.group(2) or match.group(3)
        if code is None or int(code, 16) > 0x10FFFF:
            raise FormatError(f"unknown escape {text[match.start():match.start() + 2]!r} in {text!r:.60}", where,
                              "write \\\\ for a backslash and \\uXXXX for a control character")
        return chr(int(code, 16))

    return _UNESCAPE.sub(replace, text) if "\\" in text else text


def _string(value: str) -> str:
    return '"' + escape_text(value) + '"'


def real(value: float) -> str:
    """A float as a GML real: its shortest digits, always with a `.`."""
    text = repr(value)
    if "." in text:
        return text
    mantissa, _, exponent = text.partition("e")
    return f"{mantissa}.0e{exponent}" if exponent else f"{mantissa}.0"


def _add_properties(record: RecordText, properties: Properties) -> None:
    for key, value in properties:
        if _KEY.match(key) and key not in RESERVED and not isinstance(value, bool):
            record.add(" ").add(key, "property_key").add(" ")
            text = real(value) if isinstance(value, float) else str(value) if isinstance(value, int) else _string(value)
            record.add(text, "property_value")
            continue
        record.add(' property [ key ').add(_string(key), "property_key")
        kind, text = (("bool", str(int(value))) if isinstance(value, bool) else ("int", str(value))
                      if isinstance(value, int) else ("real", real(value)) if isinstance(value, float)
                      else ("text", _string(value)))
        record.add(f" {kind} ").add(text, "property_value").add(" ]")


def _node(record: RecordText, number: int, node_id: str) -> RecordText:
    return record.add(f"  node [ id {number} label ").add(_string(node_id), "node_id")


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)
    numbers = memo_table(memo, "numbers", lambda: {node.id: index for index, node in enumerate(graph.nodes)})
    ordered = nodes_then_edges(units)
    named = {unit.node.id for unit in ordered if unit.is_node}
    records = []
    for unit in ordered:
        if unit.is_node:
            record = memo.get(unit.key)
            if record is None:
                node = unit.node
                text = _node(RecordText(), numbers[node.id], node.id).add(" type ").add(_string(node.type), "node_type")
                _add_properties(text, node.properties)
                record = memo[unit.key] = text.add(" ]\n").build(unit.key)
            records.append(record)
            continue
        edge = unit.edge
        text = RecordText()
        for endpoint in dict.fromkeys((edge.source, edge.target)):
            if endpoint not in named:  # an endpoint named by no node record yet: a node without a type
                named.add(endpoint)
                _node(text, numbers[endpoint], endpoint).add(" ]\n")
        text.add(f"  edge [ source {numbers[edge.source]} target {numbers[edge.target]} relation ")
        text.add(_string(edge.relation), "relation")
        _add_properties(text, edge.properties)
        records.append(text.add(" ]\n").build(unit.key))
    return Rendering(NAME, PREAMBLE, tuple(records), (CLOSING,) * (len(records) + 1))


# ---------------------------------------------------------------------------------------------- decoding

_TOKEN = re.compile(r'(\s+|#[^\n]*)|([A-Za-z][0-9A-Za-z_]*)|([+-]?(?:[0-9]*\.[0-9]+|[0-9]+\.[0-9]*)(?:[Ee][+-]?[0-9]+)?)'
                    r'|([+-]?[0-9]+)|("[^"]*")|(\[)|(\])')
_KINDS = ("space", "key", "real", "int", "string", "open", "close")
_DEEPEST = 3  # graph [ node [ property [ ... ] ] ]: anything deeper is not this format (and would recurse)
_FIX = "see the format's grammar: graph [ directed 1 multigraph 1 node [ ... ] edge [ ... ] ]"


class _Tokens:
    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts: list[int] | None = None  # the offset each line starts at, found on the first error()
        self.items: list[tuple[str, str, int]] = []
        position = 0
        while position < len(text):
            match = _TOKEN.match(text, position)
            if match is None:
                raise self.error(f"cannot read {text[position:position + 12]!r}", position)
            kind = _KINDS[(match.lastindex or 1) - 1]
            if kind != "space":
                self.items.append((kind, match.group(), position))
            position = match.end()
        self.index = 0

    def error(self, what: str, position: int) -> FormatError:
        # Every node, edge and string names its place (for the errors of what it holds): counting the lines
        # before it each time was quadratic, 0.9 s of a 2,000-service graph's decode.
        if self.line_starts is None:
            self.line_starts = [0, *(match.end() for match in re.finditer("\n", self.text))]
        line = bisect.bisect_right(self.line_starts, position)
        column = position - self.line_starts[line - 1] + 1
        return FormatError(what, f"line {line}, column {column}", _FIX, line=line)

    def next(self, *kinds: str) -> tuple[str, str, int]:
        if self.index >= len(self.items):
            raise self.error(f"expected {' or '.join(kinds)}, found the end", len(self.text))
        token = self.items[self.index]
        if token[0] not in kinds:
            raise self.error(f"expected {' or '.join(kinds)}, found {token[1][:20]!r}", token[2])
        self.index += 1
        return token

    def peek(self) -> str | None:
        return self.items[self.index][0] if self.index < len(self.items) else None

    def value(self, depth: int = 1) -> tuple[object, int]:
        """A value: a number, a string (unescaped) or a nested list of key-value pairs."""
        kind, text, position = self.next("int", "real", "string", "open")
        if kind == "open" and depth >= _DEEPEST:
            raise self.error(f"lists nest deeper than the {_DEEPEST} levels of graph, node and property", position)
        if kind == "int":
            try:
                return int(text), position
            except ValueError:
                raise self.error(f"the integer {text[:20]}... has too many digits", position) from None
        if kind == "real":
            number = float(text)
            if number in (float("inf"), float("-inf")):
                raise self.error(f"the real {text[:20]} is too large", position)
            return number, position
        if kind == "string":
            return unescape_text(text[1:-1], self.error("", position).where), position
        return self.pairs(depth + 1), position

    def pairs(self, depth: int = 1) -> list[tuple[str, object, int]]:
        """Key-value pairs up to the closing `]` (consumed)."""
        found = []
        while self.peek() != "close":
            _, key, position = self.next("key", "close")
            value, _ = self.value(depth)
            found.append((key, value, position))
        self.next("close")
        return found


def _fields(tokens: _Tokens, pairs, where: str, required: tuple[str, ...]) -> tuple[dict, Properties]:
    fields: dict[str, object] = {}
    properties: dict[str, PropertyValue] = {}
    for key, value, position in pairs:
        if key == "property":
            key, value = _listed_property(tokens, value, position)
        elif key in RESERVED:
            if key in fields:
                raise tokens.error(f"{key} is given twice", position)
            fields[key] = value
            continue
        elif isinstance(value, list):
            raise tokens.error(f"the property {key!r:.40} holds a list", position)
        if key in properties:
            raise tokens.error(f"the property {key!r:.40} is given twice", position)
        properties[key] = value
    for name in required:
        if name not in fields:
            raise FormatError(f"a {where} has no {name}", where, _FIX)
    return fields, properties_from(properties, where)


def _listed_property(tokens: _Tokens, value: object, position: int) -> tuple[str, PropertyValue]:
    kinds = {"text": str, "int": int, "real": float, "bool": int}
    if not isinstance(value, list) or len(value) != 2 or value[0][0] != "key" or value[1][0] not in kinds:
        raise tokens.error('a property list is not [ key "NAME" text|int|real|bool VALUE ]', position)
    (_, key, _), (kind, item, _) = value
    if not isinstance(key, str) or type(item) is not kinds[kind] or (kind == "bool" and item not in (0, 1)):
        raise tokens.error(f"the property list's {kind} value is {item!r:.40}", position)
    return key, (item == 1 if kind == "bool" else item)  # type: ignore[return-value]


def _name(tokens: _Tokens, value: object, what: str, position: int) -> str:
    if not isinstance(value, str):
        raise tokens.error(f"the {what} is not a string", position)
    return value


def decode(text: str) -> Graph:
    tokens = _Tokens(text)
    _, key, position = tokens.next("key")
    if key != "graph":
        raise tokens.error(f"the document starts with {key!r:.20}, not graph", position)
    tokens.next("open")
    body = tokens.pairs()
    if tokens.peek() is not None:
        raise tokens.error("text after the graph", tokens.items[tokens.index][2])
    names: dict[int, str] = {}
    nodes, edges = [], []
    header = {key: value for key, value, _ in body if key in ("directed", "multigraph")}
    if header != {"directed": 1, "multigraph": 1}:
        raise FormatError("the graph is not declared `directed 1` and `multigraph 1`", "graph", _FIX)
    for key, value, position in body:
        if key in ("directed", "multigraph"):
            continue
        if key not in ("node", "edge") or not isinstance(value, list):
            raise tokens.error(f"unexpected {key!r:.20} in the graph", position)
        where = f"{key} at {tokens.error('', position).where}"
        if key == "node":
            fields, properties = _fields(tokens, value, where, ("id", "label"))
            number, node_id = fields["id"], _name(tokens, fields["label"], "label", position)
            if not isinstance(number, int) or number in names or set(fields) - {"id", "label", "type"}:
                raise tokens.error("a node's id is not a new integer, or it has an edge field", position)
            names[number] = node_id
            if "type" in fields:
                nodes.append(Node(node_id, _name(tokens, fields["type"], "type", position), properties))
            elif properties:
                raise tokens.error("a node without a type has properties", position)
        else:
            fields, properties = _fields(tokens, value, where, ("source", "target", "relation"))
            if set(fields) - {"source", "target", "relation"}:
                raise tokens.error("an edge has a node field", position)
            source, target = (names.get(fields[end]) if isinstance(fields[end], int) else None
                              for end in ("source", "target"))
            if source is None or target is None:
                raise tokens.error("an edge names a node number no node above has", position)
            edges.append(Edge(source, _name(tokens, fields["relation"], "relation", position), target, properties))
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="GML (networkx)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='edge [ source 1 target 2 relation "depends_on" ]',
    interleaves=False,
)
