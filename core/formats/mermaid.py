"""mermaid: a Mermaid flowchart, one line per node or edge (the diagram language people paste into prompts). LOSSY.

    flowchart LR
        n1["svc-api (service)"]
        n1 -->|"depends_on"| n2

A node's Mermaid id is `n` and its position in the graph's canonical node order; its label is
its name and, in parentheses, its type. An edge whose endpoint's node is not among the rendered
units above declares that endpoint first, `n5["x"]`, without a type (decoded as a node of unknown
type, as in every format, unless the node's own line follows). In labels, `"`, `#`, `(`, `)`, `|`, `<`, `>`, `&`, `[`, `]`, `{`, `}`, `;`,
backslashes and control characters are Mermaid entity codes `#<decimal>;`. Exactly what is lost:
every property (a flowchart has no place for attributes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, RecordText, Rendering, memo_table, record_memo, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import split_lines
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "mermaid"
PREAMBLE = "flowchart LR"
LOST = "all properties (a flowchart has no place for attributes)"
_ENCODED = re.compile(r'[\x00-\x1f\x7f-\x9f\u2028\u2029"#()|<>&\[\]{};\\`]')

GRAMMAR = """\
A Mermaid flowchart. `nN["NAME (TYPE)"]` declares node nN; `nN["NAME"]` only names it; \
`nA -->|"REL"| nB` is an edge A --REL--> B. In labels #<number>; is the character with that code. \
Properties are not given."""


def label_text(value: str) -> str:
    return _ENCODED.sub(lambda match: f"#{ord(match.group())};", value)


def _declaration(record: RecordText, number: int, node_id: str) -> RecordText:
    return record.add(f'\n    n{number}["').add(label_text(node_id), "node_id")


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)
    numbers = memo_table(memo, "numbers", lambda: {node.id: index for index, node in enumerate(graph.nodes)})
    declared: set[str] = set()
    records = []
    for unit in units:
        if unit.is_node:
            declared.add(unit.node.id)
            record = memo.get(unit.key)
            if record is None:
                node = unit.node
                text = _declaration(RecordText(), numbers[node.id], node.id).add(" (")
                record = memo[unit.key] = text.add(label_text(node.type), "node_type").add(')"]').build(unit.key)
            records.append(record)
            continue
        edge = unit.edge
        text = RecordText()
        for endpoint in dict.fromkeys((edge.source, edge.target)):
            if endpoint not in declared:  # named by no line above: a declaration without a type (its own may follow)
                declared.add(endpoint)
                _declaration(text, numbers[endpoint], endpoint).add('"]')
        text.add(f'\n    n{numbers[edge.source]} -->|"').add(label_text(edge.relation), "relation")
        records.append(text.add(f'"| n{numbers[edge.target]}').build(unit.key))
    return without_closing(NAME, PREAMBLE, records)


# ---------------------------------------------------------------------------------------------- decoding

_LABEL = r'"([^"]*)"'
_DECLARATION = re.compile(rf"n(0|[1-9][0-9]*)\[{_LABEL}\]")
_EDGE = re.compile(rf"n(0|[1-9][0-9]*) -->\|{_LABEL}\| n(0|[1-9][0-9]*)")
_CODE = re.compile(r"#([0-9]{1,7});|#")
_FIX = 'write nN["NAME (TYPE)"], nN["NAME"] or nA -->|"REL"| nB, one per line, after "flowchart LR"'


def _decoded(text: str, line: int) -> str:
    def replace(match: re.Match) -> str:
        if match.group(1) is None or int(match.group(1)) > 0x10FFFF:
            raise FormatError(f"a # that is not an entity code in {text[:40]!r}", f"line {line}",
                              "write #35; for #", line=line)
        return chr(int(match.group(1)))

    return _CODE.sub(replace, text) if "#" in text else text


def decode(text: str) -> Graph:
    lines = split_lines(text)
    if lines[0][1] != PREAMBLE:
        raise FormatError('the document does not start with "flowchart LR"', "line 1", _FIX, line=1)
    names: dict[str, str] = {}
    typed: set[str] = set()
    nodes, edges = [], []
    for number, raw in lines[1:]:
        line = raw.strip(" ")
        if not line:
            continue
        declaration = _DECLARATION.fullmatch(line)
        if declaration is not None:
            variable, label = declaration.group(1), declaration.group(2)
            name, parenthesis, node_type = label.rpartition(" (")
            has_type = bool(parenthesis) and node_type.endswith(")")
            name = _decoded(name if has_type else label, number)
            if names.setdefault(variable, name) != name or (has_type and variable in typed):
                raise FormatError(f"n{variable} is declared twice", f"line {number}", _FIX, line=number)
            if has_type:
                typed.add(variable)
                nodes.append(Node(name, _decoded(node_type[:-1], number)))
            continue
        edge = _EDGE.fullmatch(line)
        if edge is None:
            raise FormatError(f"unreadable line {line[:40]!r}", f"line {number}", _FIX, line=number)
        source, target = names.get(edge.group(1)), names.get(edge.group(3))
        if source is None or target is None:
            raise FormatError("an edge names a node no line above declares", f"line {number}", _FIX, line=number)
        edges.append(Edge(source, _decoded(edge.group(2), number), target))
    return decoded_graph(nodes, edges)


def _image(unit: Unit) -> Node | Edge:
    """What decoding gives back of a unit: the node or edge without its properties."""
    if unit.is_node:
        return Node(unit.node.id, unit.node.type)
    return Edge(unit.edge.source, unit.edge.relation, unit.edge.target)


FORMAT = Format(
    name=NAME,
    title="Mermaid flowchart (lossy)",
    lossless=False,
    lost=LOST,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    image=_image,
    example='n1 -->|"depends_on"| n2',
)
