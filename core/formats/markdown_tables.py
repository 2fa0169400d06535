"""markdown_tables: a Markdown (GitHub) table of nodes, then a table of edges.

    | id | type |
    |---|---|
    | svc-api | service |

    | source | relation | target |
    |---|---|---|
    | svc-api | depends_on | svc-auth |

A graph with properties gains a "properties" column holding a JSON object (empty when none). A
cell is written between "| " and " |", escaped so that it cannot end or split its table or lose
its edges to trimming: `\\\\` for a backslash, `\\|` for a pipe, `\\n`, `\\r` and `\\t` for a line
feed, carriage return and tab, and `\\s` for a space at either end of the cell. Both tables are
always present; a context cut among the nodes ends with the edges table's header.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import (
    AtomKind,
    Format,
    Record,
    RecordText,
    Rendering,
    after_whole_records,
    edges_header_context,
    nodes_then_edges,
    record_memo,
)
from core.formats.decoding import decoded_graph, properties_from_json
from core.graph.model import Edge, Graph, Node, Properties, properties_json
from core.graph.units import Unit

NAME = "markdown_tables"
NODE_COLUMNS = ["id", "type"]
EDGE_COLUMNS = ["source", "relation", "target"]
PROPERTIES_COLUMN = "properties"
_ESCAPES = {"\\": "\\\\", "|": "\\|", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPES = {"\\": "\\", "|": "|", "n": "\n", "r": "\r", "t": "\t", "s": " "}

GRAMMAR = """\
Two Markdown tables. | id | type | rows are nodes; | source | relation | target | rows are edges: \
source --relation--> target. In a cell \\| is a pipe, \\\\ a backslash, \\n \\r \\t a line feed, \
carriage return and tab, \\s a space at the cell's start or end. A properties column holds a JSON \
object (empty: none)."""


def escape_cell(value: str) -> str:
    text = "".join(_ESCAPES.get(char, char) for char in value)
    if text.startswith(" "):
        text = "\\s" + text[1:]
    if text.endswith(" "):
        text = text[:-1] + "\\s"
    return text


def table_head(columns: list[str]) -> str:
    return "| " + " | ".join(columns) + " |\n" + "|" + "---|" * len(columns)


def _row(cells: list[tuple[str, AtomKind | None]], key: str, lead: str) -> Record:
    record = RecordText().add(lead + "\n|")
    for value, kind in cells:
        record.add(" ").add(escape_cell(value), kind).add(" |")
    return record.build(key)


def _properties_cell(properties: Properties) -> tuple[str, AtomKind | None]:
    return (properties_json(properties), "property_value") if properties else ("", None)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    extra = [PROPERTIES_COLUMN] if graph.has_properties else []
    edges_head = "\n\n" + table_head(EDGE_COLUMNS + extra)
    memo = record_memo(graph, NAME)  # a row depends on its unit and on the text before it only
    records: list[Record] = []
    closings = [edges_head]
    in_edges = False
    for unit in nodes_then_edges(units):
        if unit.is_node:
            record = memo.get((unit.key, ""))
            if record is None:
                node = unit.node
                cells: list[tuple[str, AtomKind | None]] = [(node.id, "node_id"), (node.type, "node_type")]
                cells += [_properties_cell(node.properties)] if extra else []
                record = memo[unit.key, ""] = _row(cells, unit.key, "")
            records.append(record)
            closings.append(edges_head)
        else:
            lead = "" if in_edges else edges_head
            record = memo.get((unit.key, lead))
            if record is None:
                edge = unit.edge
                cells = [(edge.source, "node_id"), (edge.relation, "relation"), (edge.target, "node_id")]
                cells += [_properties_cell(edge.properties)] if extra else []
                record = memo[unit.key, lead] = _row(cells, unit.key, lead)
            records.append(record)
            in_edges = True
            closings.append("")
    return Rendering(NAME, table_head(NODE_COLUMNS + extra), tuple(records), tuple(closings))


# ---------------------------------------------------------------------------------------------- decoding

def split_row(line: str, number: int) -> list[str]:
    """The unescaped cells of `| a | b |`; a bad escape or a missing outer pipe is a FormatError."""
    raw: list[list[str]] = [[]]
    index = 0
    while index < len(line):
        char = line[index]
        if char == "|":
            raw.append([])
        elif char == "\\" and index + 1 < len(line):
            raw[-1].append(line[index:index + 2])
            index += 1
        else:
            raw[-1].append(char)
        index += 1
    cells = ["".join(parts).strip(" \t") for parts in raw]
    if len(cells) < 3 or cells[0] or cells[-1]:
        raise FormatError(f"not a table row: {line[:60]!r}", f"line {number}",
                          "write rows as | cell | cell |, with \\| for a pipe inside a cell", line=number)
    return [_unescape(cell, number) for cell in cells[1:-1]]


def _unescape(cell: str, number: int) -> str:
    parts = []
    index = 0
    while index < len(cell):
        char = cell[index]
        if char == "\\":
            code = cell[index + 1] if index + 1 < len(cell) else ""
            if code not in _UNESCAPES:
                shown = "\\" + code
                raise FormatError(f"unknown escape {shown!r} in a cell", f"line {number}",
                                  "write \\\\ \\| \\n \\r \\t or \\s", line=number)
            parts.append(_UNESCAPES[code])
            index += 2
        else:
            parts.append(char)
            index += 1
    return "".join(parts)


Rows = list[tuple[int, list[str]]]  # (line number, cells)


def _table(lines: list[tuple[int, str]], start: int, columns: list[str]) -> tuple[bool, Rows, int]:
    """Read one table from lines[start]: (has a properties column, rows, index after the table)."""
    if start >= len(lines):
        raise FormatError(f"the table | {' | '.join(columns)} | is missing", "end of text",
                          "write both tables, nodes first", line=lines[-1][0] if lines else 1)
    number, head = lines[start]
    names = split_row(head, number)
    if names not in (columns, columns + [PROPERTIES_COLUMN]):
        raise FormatError(f"expected the header | {' | '.join(columns)} |, found {head[:60]!r}", f"line {number}",
                          "start the table with its header row", line=number)
    separator = split_row(lines[start + 1][1], lines[start + 1][0]) if start + 1 < len(lines) else []
    if len(separator) != len(names) or not all(set(cell) <= set(":-") and "-" in cell for cell in separator):
        raise FormatError("the header is not followed by a |---| separator row", f"line {number + 1}",
                          "write |---|---| under the header", line=number + 1)
    rows = []
    index = start + 2
    while index < len(lines) and lines[index][1].strip():
        number, line = lines[index]
        cells = split_row(line, number)
        if len(cells) != len(names):
            raise FormatError(f"expected {len(names)} cells, found {len(cells)}", f"line {number}",
                              "give every row as many cells as the header", line=number)
        rows.append((number, cells))
        index += 1
    return len(names) > len(columns), rows, index


def _skip_blank(lines: list[tuple[int, str]], index: int) -> int:
    while index < len(lines) and not lines[index][1].strip():
        index += 1
    return index


def decode(text: str) -> Graph:
    return decode_lines(list(enumerate(text.split("\n"), start=1)))


def decode_lines(numbered: list[tuple[int, str]]) -> Graph:
    """Decode the given (line number, line) pairs, in order; a table's rows each read alone."""
    lines = [(number, line.removesuffix("\r")) for number, line in numbered]
    node_properties, node_rows, index = _table(lines, _skip_blank(lines, 0), NODE_COLUMNS)
    edge_properties, edge_rows, index = _table(lines, _skip_blank(lines, index), EDGE_COLUMNS)
    index = _skip_blank(lines, index)
    if index < len(lines):
        number = lines[index][0]
        raise FormatError("text after the edges table", f"line {number}", "end the text with the edges table",
                          line=number)
    nodes = [Node(cells[0], cells[1], _properties(cells, 2, node_properties, number))
             for number, cells in node_rows]
    edges = [Edge(cells[0], cells[1], cells[2], _properties(cells, 3, edge_properties, number))
             for number, cells in edge_rows]
    return decoded_graph(nodes, edges)


def _properties(cells: list[str], column: int, present: bool, number: int):
    if not present or not cells[column]:
        return ()
    return properties_from_json(cells[column], f"line {number} properties")


FORMAT = Format(
    name=NAME,
    title="Markdown tables",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="| svc-api | depends_on | svc-auth |",
    interleaves=False,
    tail_start=after_whole_records,  # rows read alone; a blank line ends a table, so lines are left out instead
    tail_context=edges_header_context,
    decode_lines=decode_lines,
)
