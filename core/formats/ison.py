"""ison: ISON tables as ison-py 1.2.0 writes the flat records (the ISONGraph benchmark's "ISON").

    table.nodes
    id name type age
    1 Alice person 28
    2 Bob person 34

    table.edges
    source target relation since
    1 2 follows 2020

The document is `ison_parser.dumps(ison_parser.from_dict({"nodes": [...], "edges": [...]}, smart_order=True))`
of the flat records of `core.formats.flat_records` (id, type, then the properties; source, target, relation,
then the properties), the call the ISONGraph benchmark makes: one table per section, its columns the union of
its records' fields in first-seen order, arranged by the package's `smart_order` (id first, then name-like
fields, the rest, `*_id` last), a missing value written `null`. Each row is a record; the node table's header
is the preamble and the first edge row opens the edge table, so every prefix is a document. Cells are the
package's, guarded as `core.formats.ison_cells` says (a decimal written with an exponent, text the reader
would misread, a property key that cannot head a column); `ison_parser.loads` reads the text back.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import ison_parser

from core.errors import FormatError
from core.formats.base import AtomKind, Format, Record, RecordText, Rendering, memo_table, nodes_then_edges, record_memo
from core.formats.flat_records import EDGE_FIELDS, NODE_FIELDS, records_graph, written_id
from core.formats.ison_cells import NESTED, cell, parse, read_properties, record_values
from core.graph.model import Graph
from core.graph.units import Unit, graph_units

NAME = "ison"
_KINDS: dict[str, AtomKind] = {"id": "node_id", "type": "node_type", "source": "node_id", "target": "node_id",
                               "relation": "relation"}
_SECTIONS = {"nodes": NODE_FIELDS, "edges": EDGE_FIELDS}

GRAMMAR = """\
ISON tables. `table.nodes` then a line naming the columns, then one row per node; `table.edges` the same, \
one row per edge: source --relation--> target. Cells are separated by spaces, in the columns' order; \
a quoted cell is text, null means the record has no such property, and a `properties` cell holds a \
record's properties as a JSON object."""


def _values(graph: Graph, unit: Unit) -> dict:
    if unit.is_node:
        node = unit.node
        return {"id": written_id(graph, node.id), "type": node.type, **record_values(node.properties, NODE_FIELDS)}
    edge = unit.edge
    return {"source": written_id(graph, edge.source), "target": written_id(graph, edge.target),
            "relation": edge.relation, **record_values(edge.properties, EDGE_FIELDS)}


def _columns(memo: dict[Hashable, Record], graph: Graph, units: Sequence[Unit], section: str) -> tuple[str, ...]:
    """A section's columns, for the whole graph, as the package's from_dict arranges them."""
    def build() -> tuple[str, ...]:
        records = [_values(graph, unit) for unit in units if unit.is_node == (section == "nodes")]
        document = ison_parser.from_dict({section: records}, smart_order=True, flatten=False)
        return tuple(document.blocks[0].fields) if document.blocks else ()
    return memo_table(memo, f"{section} columns", build)


def _row(values: dict, columns: tuple[str, ...], lead: str, key: str) -> Record:
    record = RecordText().add(lead)
    for index, column in enumerate(columns):
        record.add(" " if index else "").add(cell(values.get(column)), _KINDS.get(column, "property_value"))
    return record.build(key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a row depends on its unit, the graph's columns and its lead
    every = graph_units(graph)
    node_columns, edge_columns = _columns(memo, graph, every, "nodes"), _columns(memo, graph, every, "edges")
    preamble = "table.nodes\n" + " ".join(node_columns) if graph.nodes else ""
    records: list[Record] = []
    in_edges = False
    for unit in nodes_then_edges(units):
        lead = "\n"
        if not unit.is_node and not in_edges:
            lead = "\n\ntable.edges\n" + " ".join(edge_columns) + "\n"
            in_edges = True
        record = memo.get((unit.key, lead))
        if record is None:
            columns = node_columns if unit.is_node else edge_columns
            record = memo[unit.key, lead] = _row(_values(graph, unit), columns, lead, unit.key)
        records.append(record)
    return Rendering(NAME, preamble, tuple(records), ("",) * (len(records) + 1))


def decode(text: str) -> Graph:
    document = parse(text)
    sections: dict[str, list[dict]] = {"nodes": [], "edges": []}
    seen: set[str] = set()
    for block in document.blocks:
        where = f"block {block.kind}.{block.name}"
        if block.kind != "table" or block.name not in sections or block.name in seen:
            raise FormatError(f"unexpected {where[:80]}", where, "write one table.nodes and one table.edges")
        fields = _SECTIONS[block.name]
        missing = [field for field in fields if field not in block.fields]
        if missing:
            raise FormatError(f"{where[:80]} has no column {missing[0]}", where, f"name the columns {', '.join(fields)}")
        rows = []
        for index, row in enumerate(block.rows):
            row_where = f"{where}, row {index + 1}"
            record = {field: row[field] for field in fields}
            properties = read_properties(row, fields, row_where)
            record.update({NESTED: properties} if any(key in fields for key in properties) else properties)
            rows.append(record)
        sections[block.name] = rows
        seen.add(block.name)
    return records_graph(sections)


FORMAT = Format(
    name=NAME,
    title="ISON tables",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="table.edges\nsource target relation\nsvc-api svc-auth depends_on",
    interleaves=False,
)
