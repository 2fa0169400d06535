"""csv: one CSV table `kind,a,b,c` with N rows (id, type) and E rows (source, relation, target)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import AtomKind, Format, RecordText, Rendering, record_memo, without_closing
from core.formats.decoding import decoded_graph, properties_from_json
from core.graph.model import Edge, Graph, Node, Properties, properties_json
from core.graph.units import Unit

NAME = "csv"
HEADER = ["kind", "a", "b", "c"]
PROPERTIES_COLUMN = "properties"
_NEEDS_QUOTES = (",", '"', "\n", "\r")

GRAMMAR = """\
A CSV table with header kind,a,b,c. A row N,id,type, is a node; a row E,source,relation,target is \
an edge: source --relation--> target. Fields holding commas, quotes or line breaks are quoted, \
with "" for a quote. An optional fifth column "properties" holds a JSON object."""


def csv_field(value: str) -> str:
    """A field as Python's csv writer (QUOTE_MINIMAL) writes it."""
    if any(char in value for char in _NEEDS_QUOTES):
        return '"' + value.replace('"', '""') + '"'
    return value


def _row(cells: list[tuple[str, AtomKind | None]], key: str) -> RecordText:
    record = RecordText()
    for index, (value, kind) in enumerate(cells):
        if index:
            record.add(",")
        record.add(csv_field(value), kind)  # a quoted field's atom includes its quotes
    return record


def _properties_cell(properties: Properties) -> str:
    return properties_json(properties) if properties else ""


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    with_properties = graph.has_properties
    header = HEADER + [PROPERTIES_COLUMN] if with_properties else HEADER
    memo = record_memo(graph, NAME)  # a row depends on its unit (and on the graph having properties)
    records = []
    for unit in units:
        record = memo.get(unit.key)
        if record is not None:
            records.append(record)
            continue
        if unit.is_node:
            node = unit.node
            cells: list[tuple[str, AtomKind | None]] = [("N", None), (node.id, "node_id"), (node.type, "node_type"),
                                                        ("", None)]
            properties = node.properties
        else:
            edge = unit.edge
            cells = [("E", None), (edge.source, "node_id"), (edge.relation, "relation"), (edge.target, "node_id")]
            properties = edge.properties
        if with_properties:
            cells.append((_properties_cell(properties), "property_value" if properties else None))
        record = memo[unit.key] = _row(cells, unit.key).add("\n").build(unit.key)
        records.append(record)
    preamble = ",".join(header) + "\n"
    return without_closing(NAME, preamble, records)


def decode(text: str) -> Graph:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as error:
        raise FormatError(f"malformed CSV: {error}", f"line {reader.line_num}",
                          "quote fields that hold commas, quotes or line breaks", line=reader.line_num) from None
    if not rows or rows[0][1] not in (HEADER, HEADER + [PROPERTIES_COLUMN]):
        raise FormatError("the header is not kind,a,b,c (or kind,a,b,c,properties)", "line 1",
                          "start the table with the header row", line=1)
    width = len(rows[0][1])
    nodes, edges = [], []
    for line, row in rows[1:]:
        if len(row) != width:
            raise FormatError(f"expected {width} fields, found {len(row)}", f"line {line}",
                              "give every row as many fields as the header", line=line)
        kind, a, b, c = row[:4]
        properties = properties_from_json(row[4], f"line {line} properties") if width == 5 and row[4] else ()
        if kind == "N" and c == "":
            nodes.append(Node(a, b, properties))
        elif kind == "E":
            edges.append(Edge(a, b, c, properties))
        else:
            raise FormatError(f"unknown row kind {kind!r} (or a node row with a fourth value)", f"line {line}",
                              "use N,id,type, for nodes and E,source,relation,target for edges", line=line)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="CSV records",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="E,svc-api,depends_on,svc-auth",
)
