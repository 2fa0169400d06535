"""relation_tables: a node table and one edge table per relation, ISONGraph-style (ISON `table.` blocks).

    table.nodes
    id type
    svc-api service

    table.depends_on
    source target
    svc-api svc-auth

Rows are space-separated; a name that is not a plain word is a JSON string, and a row's
properties, when it has any, are a JSON object in a last cell. The node table's columns are
`id type`, an edge table's `source target`, so a relation named `nodes` stays an edge table.
Tables come in the order of their first unit and rows keep the given order within a table (the
grouping of `core.formats.grouping`), so every prefix of records is the rendering of its units; the
first row of a table carries its two header lines, and a blank line separates tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import grouped, split_lines
from core.formats.quoting import Cursor, Names, add_properties
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "relation_tables"
NAMES = Names(extra="-./:+@'")
NODE_TABLE = "nodes"
NODE_COLUMNS = "id type"
EDGE_COLUMNS = "source target"
_FIX = "write table.NAME, then its columns (id type, or source target), then one row per line"

GRAMMAR = """\
ISON-style tables. `table.nodes` with columns `id type` lists the nodes; each `table.REL` with \
columns `source target` lists the edges source --REL--> target. Cells are separated by spaces; \
names that are not plain words are JSON strings; a last cell {...} holds a row's properties."""


def _carrier(unit: Unit) -> tuple[str, ...]:
    return (NODE_TABLE,) if unit.is_node else ("relation", unit.edge.relation)


def _row(record: RecordText, unit: Unit) -> Record:
    if unit.is_node:
        record.add(NAMES.write(unit.node.id), "node_id").add(" ").add(NAMES.write(unit.node.type), "node_type")
        add_properties(record, unit.node.properties)
    else:
        record.add(NAMES.write(unit.edge.source), "node_id").add(" ").add(NAMES.write(unit.edge.target), "node_id")
        add_properties(record, unit.edge.properties)
    return record.build(unit.key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    records = []
    for index, (carrier, group) in enumerate(grouped(units, _carrier)):
        for position, unit in enumerate(group):
            record = RecordText()
            if position == 0:
                record.add("\n\n" if index else "").add("table.")
                if unit.is_node:
                    record.add(f"{NODE_TABLE}\n{NODE_COLUMNS}\n")
                else:
                    record.add(NAMES.write(carrier[1]), "relation").add(f"\n{EDGE_COLUMNS}\n")
            else:
                record.add("\n")
            records.append(_row(record, unit))
    return without_closing(NAME, "", records)


def decode(text: str) -> Graph:
    nodes, edges = [], []
    table: str | None = None  # the relation of the table being read; NODE_TABLE's own marker for nodes
    expect_header, expect_columns = True, False
    for number, line in split_lines(text):
        if not line:
            expect_header, table = True, None
            continue
        cursor = Cursor(line, number)
        if expect_header:
            cursor.expect("table.", _FIX)
            name = cursor.name(NAMES, "a table name")
            cursor.end(_FIX)
            table, expect_header, expect_columns = name, False, True
            continue
        if expect_columns:
            if line not in (NODE_COLUMNS, EDGE_COLUMNS):
                raise cursor.error(f"expected the columns {NODE_COLUMNS!r} or {EDGE_COLUMNS!r}", _FIX)
            if line == NODE_COLUMNS and table != NODE_TABLE:
                raise cursor.error("only table.nodes has the columns 'id type'", _FIX)
            table = None if line == NODE_COLUMNS else table
            expect_columns = False
            continue
        first = cursor.name(NAMES, "a name")
        cursor.expect(" ", _FIX)
        second = cursor.name(NAMES, "a name")
        properties = cursor.optional_properties()
        cursor.end(_FIX)
        if table is None:
            nodes.append(Node(first, second, properties))
        else:
            edges.append(Edge(first, table, second, properties))
    if expect_columns:
        raise FormatError("a table has no columns line", "the end", _FIX)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Relation tables (ISON)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="table.depends_on / source target / svc-api svc-auth",
)
