"""adjacency_matrix: one row of edge counts per node over a column for every node (GraphOmni's adjacency matrix). LOSSY.

    columns: db-identity svc-api svc-auth
    svc-api: 0 0 1
    svc-auth: 1 0 0

The columns are every node of the graph in canonical order (the preamble: the same for every
ordering and cut); a row covers a node and its outgoing edges among the rendered units (grouped
by source, as in `adjacency_list`) and gives, per column, how many of those edges go to that node.
Names that are not plain words are JSON strings. Exactly what is lost: every node type, every
relation name and every property (decoded as type "node" and relation "related_to"); a source
whose own node is not among the rendered units is decoded as a node too. The text grows with the
square of the node count: graphs above MATRIX_NODE_LIMIT nodes are refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, memo_table, record_memo, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import grouped, split_lines
from core.formats.quoting import Cursor, Names
from core.formats.untyped_pairs import PLACEHOLDER_RELATION, PLACEHOLDER_TYPE
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "adjacency_matrix"
NAMES = Names(extra="-./+@'")
MATRIX_NODE_LIMIT = 1_000  # a million cells, about two million tokens: the largest matrix written
MAX_CELL = 10_000  # parallel edges one cell may stand for when decoding (a cell is not a way to make edges en masse)
LOST = ('node types, relation names and all properties (decoded as type "node" and relation "related_to"); '
        "a source named only by its edges reads as a node")
_FIX = "write `columns: a b c` first, then one row `a: 0 1 0` per node with a count for every column"

GRAMMAR = """\
An adjacency matrix. The first line lists the columns (every node); each row `a: 0 1 0` gives, per \
column, the number of edges from a to that node. Names that are not plain words are JSON strings. \
Node types and relation names are not given."""


def _columns(graph: Graph) -> tuple[str, dict[str, int]]:
    if len(graph.nodes) > MATRIX_NODE_LIMIT:
        raise FormatError(f"an adjacency matrix of {len(graph.nodes):,} nodes has {len(graph.nodes) ** 2:,} cells",
                          "adjacency_matrix", f"use it on graphs of at most {MATRIX_NODE_LIMIT:,} nodes, or choose "
                          "adjacency_list, which writes the same edges in text that grows with the edges")
    header = "columns:" + "".join(" " + NAMES.write(node.id) for node in graph.nodes) + "\n"
    return header, {node.id: index for index, node in enumerate(graph.nodes)}


def _carrier(unit: Unit) -> str:
    return unit.node.id if unit.is_node else unit.edge.source


def _row(source: str, units: list[Unit], lead: str, positions: dict[str, int]) -> Record:
    counts = Counter(positions[unit.edge.target] for unit in units if not unit.is_node)
    record = RecordText().add(lead).add(NAMES.write(source), "node_id").add(":")
    record.add("".join(f" {counts.get(index, 0)}" for index in range(len(positions))))
    return record.build(*(unit.key for unit in units))


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    header, positions = memo_table(record_memo(graph, NAME), "columns", lambda: _columns(graph))
    records = [_row(source, group, "\n" if index else "", positions)
               for index, (source, group) in enumerate(grouped(units, _carrier))]
    return without_closing(NAME, header, records)


def decode(text: str) -> Graph:
    lines = split_lines(text)
    cursor = Cursor(lines[0][1], 1)
    cursor.expect("columns:", _FIX)
    columns = []
    while cursor.take(" "):
        columns.append(cursor.name(NAMES, "a column name"))
    cursor.end(_FIX)
    nodes, edges = [], []
    for number, line in lines[1:]:
        if not line:
            continue
        cursor = Cursor(line, number)
        source = cursor.name(NAMES, "a node id")
        cursor.expect(":", _FIX)
        nodes.append(Node(source, PLACEHOLDER_TYPE))
        for column in columns:
            cursor.expect(" ", _FIX)
            start = cursor.position
            while not cursor.at_end() and cursor.text[cursor.position].isdigit() and cursor.position - start < 6:
                cursor.position += 1
            cell = cursor.span(start)
            if not cell.isascii() or not cell.isdigit() or int(cell) > MAX_CELL:
                raise cursor.error(f"a cell is {cell or 'empty'!r:.12}, not a count from 0 to {MAX_CELL:,}", _FIX)
            edges += [Edge(source, PLACEHOLDER_RELATION, column)] * int(cell)
        cursor.end(_FIX)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Adjacency matrix (lossy)",
    lossless=False,
    lost=LOST,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="svc-api: 0 0 1 0",
)
