"""arrows: LlamaIndex-style triplets, `a -> relation -> b`, plus `id: type` lines for the node types.

    svc-api: service
    svc-api -> depends_on -> svc-auth

One line per unit in the given order. A name is written bare when it is a plain word (letters,
digits, `_`, then also `-./+@'`) and as a JSON string otherwise, so `->`, `:` and spaces inside
names stay unambiguous; properties follow a line as a compact JSON object.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.formats.base import Format, Record, RecordText, Rendering, after_whole_records, record_memo, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import split_lines
from core.formats.quoting import Cursor, Names, add_properties
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "arrows"
NAMES = Names(extra="-./+@'")
ARROW = " -> "

GRAMMAR = """\
One fact per line. id: type is a node with its type; a -> relation -> b is an edge: \
a --relation--> b. Names that are not plain words are JSON strings; a trailing JSON object holds \
the node's or edge's properties."""

_FIX = "write id: type or a -> relation -> b"


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a record depends on its unit, and on being the first or not
    records = []
    for index, unit in enumerate(units):
        lead = "\n" if index else ""
        record = memo.get((unit.key, lead))
        if record is None:
            record = memo[unit.key, lead] = _unit_record(unit, lead)
        records.append(record)
    return without_closing(NAME, "", records)


def _unit_record(unit: Unit, lead: str) -> Record:
    record = RecordText().add(lead)
    if unit.is_node:
        record.add(NAMES.write(unit.node.id), "node_id").add(": ").add(NAMES.write(unit.node.type), "node_type")
        add_properties(record, unit.node.properties)
    else:
        edge = unit.edge
        record.add(NAMES.write(edge.source), "node_id").add(ARROW).add(NAMES.write(edge.relation), "relation")
        record.add(ARROW).add(NAMES.write(edge.target), "node_id")
        add_properties(record, edge.properties)
    return record.build(unit.key)


def decode(text: str) -> Graph:
    nodes, edges = [], []
    for number, line in split_lines(text):
        if not line:
            continue
        cursor = Cursor(line, number)
        first = cursor.name(NAMES, "a node id")
        if cursor.take(": "):
            node_type = cursor.name(NAMES, "a node type")
            nodes.append(Node(first, node_type, cursor.optional_properties()))
        else:
            cursor.expect(ARROW, _FIX)
            relation = cursor.name(NAMES, "a relation")
            cursor.expect(ARROW, _FIX)
            target = cursor.name(NAMES, "a node id")
            edges.append(Edge(first, relation, target, cursor.optional_properties()))
        cursor.end(_FIX)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Arrow triplets (a -> relation -> b)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each line (page) reads alone
    example="svc-api -> depends_on -> svc-auth and svc-api: service",
)
