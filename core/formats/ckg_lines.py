"""ckg_lines: `[TYPE] id | relation: a, b` lines, the shape the CKG benchmark describes its context in (`[TAXONOMY] Label | prerequisites: …`), for any relation.

    #graph-ckg-v1
    [database] db-identity
    [service] svc-api | depends_on: svc-auth, db-identity | owned_by: team-core

The Compact Knowledge Graph benchmark serialises a subgraph as `[TAXONOMY] Label | prerequisites:
A, B`; here the bracket holds the node type and every relation gets its own `| relation: targets`
group. A line carries a node and its outgoing edges (groups in relation order, targets in the given
order). An edge whose source has no line among the units rendered goes on a line without the
bracket, `svc-web | depends_on: svc-api`, which states edges only. Lines come in the order of their
first unit, so every prefix of lines is the rendering of its own units.

A name is written bare when it is a plain word (letters, digits, `_`, then also `-./+@'`) and as a
JSON string otherwise, so `,`, `|`, `:` and brackets inside names stay unambiguous; properties follow
the node id or a target as a compact JSON object.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, after_whole_records, record_memo, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import split_lines
from core.formats.quoting import Cursor, Names, add_properties
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit, unit_edges

NAME = "ckg_lines"
VERSION_MARKER = "#graph-ckg-v1"
NAMES = Names(extra="-./+@'")

GRAMMAR = """\
First line #graph-ckg-v1. Each line [type] id | relation: a, b | relation2: c declares node id of \
that type and its edges id --relation--> a, id --relation--> b, id --relation2--> c. A line without \
[type] states edges only. Names that are not plain words are JSON strings; a JSON object after a \
name holds its node's or edge's properties."""


def _line(node: Node | None, source: str, edges: list[Edge], keys: list[str]) -> Record:
    record = RecordText().add("\n")
    if node is not None:
        record.add("[").add(NAMES.write(node.type), "node_type").add("] ")
    record.add(NAMES.write(source), "node_id")
    if node is not None:
        add_properties(record, node.properties)
    for relation in sorted({edge.relation for edge in edges}):
        record.add(" | ").add(NAMES.write(relation), "relation").add(": ")
        for index, edge in enumerate(edge for edge in edges if edge.relation == relation):
            record.add(", " if index else "").add(NAMES.write(edge.target), "node_id")
            add_properties(record, edge.properties)
    return record.build(*keys)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    # One line per source id, in the order of its first unit: the node (when rendered) and its
    # outgoing edges. Grouped inline (no key object per unit): this loop runs for every ordering and layout.
    rows = {unit.node.id for unit in units if unit.is_node}
    lines: list[list[Unit]] = []
    by_source: dict[str, list[Unit]] = {}
    for unit in units:
        source = unit.node.id if unit.is_node else unit.edge.source
        group = by_source.get(source)
        if group is None:
            lines.append(by_source.setdefault(source, [unit]))
        else:
            group.append(unit)
    memo = record_memo(graph, NAME)  # a line depends only on its units, in their order
    records = []
    for members in lines:
        keys = tuple([unit.key for unit in members])
        first = members[0]
        source = first.node.id if first.is_node else first.edge.source
        has_node = source in rows
        record = memo.get((has_node, keys))
        if record is None:
            node = next(unit.node for unit in members if unit.is_node) if has_node else None
            record = memo[has_node, keys] = _line(node, source, unit_edges(members), list(keys))
        records.append(record)
    return without_closing(NAME, VERSION_MARKER, records)


_FIX = "write [type] id | relation: a, b"


def _decode_line(cursor: Cursor, nodes: list[Node], edges: list[Edge]) -> None:
    node_type = None
    if cursor.take("["):
        node_type = cursor.name(NAMES, "a node type")
        cursor.expect("] ", _FIX)
    source = cursor.name(NAMES, "a node id")
    if node_type is not None:
        nodes.append(Node(source, node_type, cursor.optional_properties()))
    elif not cursor.startswith(" | "):
        raise cursor.error("a line without [type] must state edges", _FIX)
    while cursor.take(" | "):
        relation = cursor.name(NAMES, "a relation")
        cursor.expect(": ", _FIX)
        while True:
            target = cursor.name(NAMES, "a node id")
            edges.append(Edge(source, relation, target, cursor.optional_properties()))
            if not cursor.take(", "):
                break
    cursor.end(_FIX)


def decode(text: str) -> Graph:
    lines = split_lines(text)
    if lines[0][1] != VERSION_MARKER:
        raise FormatError(f"the first line is not {VERSION_MARKER}", "line 1",
                          f"start the text with {VERSION_MARKER}", line=1)
    nodes: list[Node] = []
    edges: list[Edge] = []
    for number, line in lines[1:]:
        if line:
            _decode_line(Cursor(line, number), nodes, edges)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="CKG lines ([TYPE] id | relation: targets)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each line (page) reads alone
    example="[service] svc-api | depends_on: svc-auth, db-identity | owned_by: team-core",
)
