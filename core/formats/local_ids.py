"""local_ids: a node table giving each node a short local id (`@0`, `@1`, ...); edges cite the local ids.

    #graph-local-v1
    ## hop 0
    @4 service svc-api
    ## hop 1
    @5 service svc-auth
    ## edges
    @4 depends_on @5

Laid out after the graph profile of GCF (Graph Compact Format): a header line, node rows
`@id type name` grouped under `##` section headers by hop distance from the question's seeds
(`## hop 0`, `## hop 1`, ...; nodes the seeds do not reach, or every node when no seeds are given,
sit under `## nodes`), then `## edges` with one `@source relation @target` line per edge. Nodes and
edges sit in separate sections: the nodes come first, grouped by hop, each group in the given order.

Local ids are stable for the whole graph: `@i` is the node's position in the graph's canonical
(id-sorted) node list, never a position among the units rendered, so every prefix and every subset
of a rendering agrees with the full rendering on what `@i` means.

An edge whose endpoint has no row in this rendering cannot cite `@i`: nothing in the text would say
which node that is. Such an endpoint is written by its full id instead (`@4 depends_on svc-auth`),
so the edge still decodes to the original ids and its endpoint becomes a node of type "unknown", as
for every format. Because node rows precede all edges, whether a row exists is known from the units
rendered, and a prefix of the records never cuts a row that one of its edges cites.

A name (type, id, relation) is written bare when it is a plain word (letters, digits, `_`, and
`-./:+@'` after the first character) and as a JSON string otherwise; properties follow a row or an
edge line as a compact JSON object.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import (
    Format,
    Record,
    RecordText,
    Rendering,
    after_whole_records,
    memo_table,
    record_memo,
    without_closing,
)
from core.formats.decoding import decoded_graph
from core.formats.grouping import split_lines
from core.formats.quoting import Cursor, Names, add_properties
from core.graph.derived import derived
from core.graph.model import Edge, Graph, Node, Properties
from core.graph.units import Unit

NAME = "local_ids"
VERSION_MARKER = "#graph-local-v1"
EDGES_HEADER = "## edges"
UNREACHED_HEADER = "## nodes"
NAMES = Names(extra="-./:+@'")

GRAMMAR = """\
First line #graph-local-v1. A row @N type id declares node id with local id @N; rows sit under \
## hop K headers (K = distance from the question's seed nodes) or ## nodes. Under ## edges, a line \
A relation B is an edge A --relation--> B, where A and B are local ids or, for a node without a \
row, full ids. Names that are not plain words are JSON strings. A trailing JSON object holds properties."""


def local_ids(graph: Graph) -> dict[str, int]:
    """Node id -> its local number: its position in the graph's canonical node list."""
    return {node.id: index for index, node in enumerate(graph.nodes)}


def hop_header(hop: float) -> str:
    return UNREACHED_HEADER if math.isinf(hop) else f"## hop {int(hop)}"


def _node_record(node: Node, number: int, header: str, key: str) -> Record:
    record = RecordText().add(f"\n{header}" if header else "").add(f"\n@{number} ")
    record.add(NAMES.write(node.type), "node_type").add(" ").add(NAMES.write(node.id), "node_id")
    add_properties(record, node.properties)
    return record.build(key)


def _endpoint(node_id: str, numbers: dict[str, int], rows: set[str]) -> str:
    return f"@{numbers[node_id]}" if node_id in rows else NAMES.write(node_id)


def _edge_record(edge: Edge, numbers: dict[str, int], rows: set[str], header: str, key: str) -> Record:
    record = RecordText().add(f"\n{header}" if header else "").add("\n")
    record.add(_endpoint(edge.source, numbers, rows), "node_id").add(" ")
    record.add(NAMES.write(edge.relation), "relation").add(" ")
    record.add(_endpoint(edge.target, numbers, rows), "node_id")
    add_properties(record, edge.properties)
    return record.build(key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    # A row depends on its unit and its header; an edge line also on which endpoints have rows.
    memo = record_memo(graph, NAME)
    numbers = memo_table(memo, "numbers", lambda: local_ids(graph))
    node_units = sorted((unit for unit in units if unit.is_node), key=lambda unit: unit.hop)  # stable
    rows = {unit.node.id for unit in node_units}
    records: list[Record] = []
    group = None
    for unit in node_units:
        header = hop_header(unit.hop)
        lead = header if header != group else ""
        record = memo.get((unit.key, lead))
        if record is None:
            record = memo[unit.key, lead] = _node_record(unit.node, numbers[unit.node.id], lead, unit.key)
        records.append(record)
        group = header
    for index, edge_unit in enumerate(unit for unit in units if not unit.is_node):
        lead = "" if index else EDGES_HEADER
        edge = edge_unit.edge
        variant = (edge_unit.key, lead, edge.source in rows, edge.target in rows)
        record = memo.get(variant)
        if record is None:
            record = memo[variant] = _edge_record(edge, numbers, rows, lead, edge_unit.key)
        records.append(record)
    return without_closing(NAME, VERSION_MARKER, records)


_FIX = "write @N type id under a hop header, or A relation B under ## edges"


def _properties(cursor: Cursor) -> Properties:
    properties = cursor.optional_properties()
    cursor.end(_FIX)
    return properties


def _local_number(cursor: Cursor) -> int:
    start = cursor.position
    cursor.expect("@", _FIX)
    digits = ""
    while not cursor.at_end() and cursor.text[cursor.position] in "0123456789":
        digits += cursor.text[cursor.position]
        cursor.position += 1
    if not digits or (len(digits) > 1 and digits[0] == "0"):
        cursor.position = start
        raise cursor.error("expected a local id @N", _FIX)
    return int(digits)


def _endpoint_id(cursor: Cursor, declared: dict[int, str]) -> str:
    if not cursor.startswith("@"):
        return cursor.name(NAMES, "a node id")
    start = cursor.position
    number = _local_number(cursor)
    if number not in declared:
        cursor.position = start
        raise cursor.error(f"@{number} has no row above", "declare every local id in a node row before the edges")
    return declared[number]


def decode(text: str) -> Graph:
    lines = split_lines(text)
    if lines[0][1] != VERSION_MARKER:
        raise FormatError(f"the first line is not {VERSION_MARKER}", "line 1",
                          f"start the text with {VERSION_MARKER}", line=1)
    declared: dict[int, str] = {}
    nodes, edges = [], []
    in_edges = False
    for number, line in lines[1:]:
        if not line:
            continue
        cursor = Cursor(line, number)
        if line.startswith("## "):
            if line == EDGES_HEADER:
                in_edges = True
            elif in_edges or not (line == UNREACHED_HEADER or _is_hop_header(line)):
                raise cursor.error(f"unexpected section header {line[:30]!r}",
                                   "hop headers come before ## edges")
        elif in_edges:
            source = _endpoint_id(cursor, declared)
            cursor.expect(" ", _FIX)
            relation = cursor.name(NAMES, "a relation")
            cursor.expect(" ", _FIX)
            target = _endpoint_id(cursor, declared)
            edges.append(Edge(source, relation, target, _properties(cursor)))
        else:
            local = _local_number(cursor)
            cursor.expect(" ", _FIX)
            node_type = cursor.name(NAMES, "a node type")
            cursor.expect(" ", _FIX)
            node_id = cursor.name(NAMES, "a node id")
            if declared.setdefault(local, node_id) != node_id:
                raise FormatError(f"@{local} is declared for two nodes", f"line {number}",
                                  "give each local id one row", line=number)
            nodes.append(Node(node_id, node_type, _properties(cursor)))
    return decoded_graph(nodes, edges)


def _is_hop_header(line: str) -> bool:
    digits = line.removeprefix("## hop ")
    return digits != line and digits.isascii() and digits.isdigit() and str(int(digits)) == digits


_CITED = re.compile(r"@([0-9]+)")
_ROW = re.compile(r"\n@([0-9]+) ")
def _rows(rendering: Rendering) -> tuple[dict[int, int], int | None]:
    """Local number -> index of the record holding its row, and the index of the first edge record."""
    return derived(rendering, "local rows", lambda: _built_rows(rendering))


def _built_rows(rendering: Rendering) -> tuple[dict[int, int], int | None]:
    rows: dict[int, int] = {}
    first_edge = None
    for index, record in enumerate(rendering.records):
        if record.unit_keys[0].startswith("n:"):
            found = _ROW.search(record.text)
            if found is not None:
                rows.setdefault(int(found.group(1)), index)
        elif first_edge is None:
            first_edge = index
    return rows, first_edge


def tail_context(rendering: Rendering, kept: int, tail: str) -> list[int]:
    """What a raw cut's partial last line needs above it: the `## edges` header (in the first edge record,
    with the rows its edge cites) and the rows of the local ids the tail cites."""
    rows, first_edge = _rows(rendering)
    cited = tail
    context = []
    if first_edge is not None and first_edge < kept:
        context.append(first_edge)
        cited += rendering.records[first_edge].text
    context += [rows[number] for number in map(int, _CITED.findall(cited)) if number in rows]
    return context


FORMAT = Format(
    name=NAME,
    title="Local ids (GCF-style node table)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="@4 depends_on @5 (after rows @4 service svc-api, @5 service svc-auth)",
    interleaves=False,
    uses_hops=True,
    tail_start=after_whole_records,  # lines read alone, but for the header and rows a line cites:
    tail_context=tail_context,
)
