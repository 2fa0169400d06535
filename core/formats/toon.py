"""toon: TOON (Token-Oriented Object Notation) tabular arrays, through the official toon-format package.

    nodes[43]{id,type}:
      db-identity,database
      ...
    edges[88]{source,relation,target}:
      svc-web,depends_on,svc-api

Rendering the whole graph gives exactly `toon_format.dumps({"nodes": [...], "edges": [...]})` (a
graph with properties gains a "properties" column holding a JSON object text, or null). Each row
is a record; every cell is written by the package.

TOON array headers declare a length, and a header precedes its rows, so a header cannot count the
rows of every prefix. Here `[N]` is the number of nodes (edges) in the whole graph the context was
taken from: the full rendering is strict TOON, and a cut or selected context lists fewer rows than
its header says, which TOON's non-strict decoding accepts (declared lengths are advisory, spec
§14.4) and which tells a reader how much is missing. The decoder reads with strict=False and then
checks that no array holds more rows than its header declares and that no key is repeated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import toon_format

from core.errors import FormatError
from core.formats.base import AtomKind, Format, Record, RecordText, Rendering, nodes_then_edges, record_memo
from core.formats.decoding import decoded_graph, expect_list, expect_object, expect_string, properties_from_json
from core.graph.model import Edge, Graph, Node, Properties, properties_json
from core.graph.units import Unit

NAME = "toon"
NODE_FIELDS = ("id", "type")
EDGE_FIELDS = ("source", "relation", "target")
PROPERTIES_FIELD = "properties"
_ROW = "\n  "
# Safe on any line: the count is possessive, so a long digit run with no "]" is not re-split (it was quadratic).
_TOP_LINE = re.compile(r"(nodes|edges)(?:\[(\d++)[^\]]*+\])?")

GRAMMAR = """\
TOON. nodes[N]{id,type}: then one indented row per node; edges[M]{source,relation,target}: then \
one row per edge: source --relation--> target. N and M count the whole graph; fewer rows mean \
the list was cut. Cells are comma-separated; a quoted cell is a string with JSON escapes. A \
properties column holds a JSON object text, or null."""


def cell(value: str | None) -> str:
    """One cell as the package writes it in a comma-delimited row."""
    return toon_format.dumps([value])[len("[1]: "):]


def header(section: str, count: int, with_properties: bool) -> str:
    fields: tuple[str, ...] = NODE_FIELDS if section == "nodes" else EDGE_FIELDS
    fields += (PROPERTIES_FIELD,) if with_properties else ()
    return f"{section}[{count}]{{{','.join(fields)}}}:"


def _row(lead: str, cells: list[tuple[str, AtomKind]], properties: Properties, with_properties: bool,
         key: str) -> Record:
    record = RecordText().add(lead + _ROW)
    for index, (value, kind) in enumerate(cells):
        record.add("," if index else "").add(cell(value), kind)
    if with_properties:
        record.add(",")
        if properties:
            record.add(cell(properties_json(properties)), "property_value")
        else:
            record.add(cell(None))
    return record.build(key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    with_properties = graph.has_properties
    edges_header = "\n" + header("edges", len(graph.edges), with_properties)
    memo = record_memo(graph, NAME)  # a row depends on its unit and on the text before it only
    records: list[Record] = []
    closings = [edges_header]
    in_edges = False
    for unit in nodes_then_edges(units):
        if unit.is_node:
            record = memo.get((unit.key, ""))
            if record is None:
                node = unit.node
                record = memo[unit.key, ""] = _row("", [(node.id, "node_id"), (node.type, "node_type")],
                                                   node.properties, with_properties, unit.key)
            records.append(record)
            closings.append(edges_header)
        else:
            lead = "" if in_edges else edges_header
            in_edges = True
            record = memo.get((unit.key, lead))
            if record is None:
                edge = unit.edge
                cells: list[tuple[str, AtomKind]] = [(edge.source, "node_id"), (edge.relation, "relation"),
                                                     (edge.target, "node_id")]
                record = memo[unit.key, lead] = _row(lead, cells, edge.properties, with_properties, unit.key)
            records.append(record)
            closings.append("")
    preamble = header("nodes", len(graph.nodes), with_properties)
    return Rendering(NAME, preamble, tuple(records), tuple(closings))


def _declared_lengths(text: str) -> dict[str, int | None]:
    """The top-level lines (which the decoder has accepted) and the length each one declares."""
    declared: dict[str, int | None] = {}
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        if not line.strip(" \t\r") or line[0] in " \t#":
            continue
        match = _TOP_LINE.match(line)
        if match is None:
            raise FormatError(f"unexpected top-level line {line[:60]!r}", f"line {number}",
                              "write the nodes[N]{...}: table, then the edges[M]{...}: table", line=number)
        section = match.group(1)
        if section in declared:
            raise FormatError(f"a second {section} table", f"line {number}",
                              f"write all {section} rows under one {section} header", line=number)
        declared[section] = int(match.group(2)) if match.group(2) else None
    return declared


def _rows(document: dict, section: str, fields: tuple[str, ...], declared: int | None) -> list[dict]:
    rows = expect_list(document[section], section)
    if declared is not None and len(rows) > declared:
        raise FormatError(f"{section} declares {declared} rows but holds {len(rows)}", f"{section} header",
                          "make the header's [N] at least the number of rows")
    for index, row in enumerate(rows):
        row = expect_object(row, f"{section}[{index}]")
        if set(row) not in (set(fields), set(fields) | {PROPERTIES_FIELD}):
            raise FormatError(f"a {section} row has the fields {sorted(row)!r:.80}", f"{section}[{index}]",
                              f"use the fields {', '.join(fields)} (and optionally properties)")
    return rows


def _properties(row: dict, where: str) -> Properties:
    value = row.get(PROPERTIES_FIELD)
    if value is None:
        return ()
    return properties_from_json(expect_string(value, where), where)


def _texts(row: dict, fields: tuple[str, ...], where: str) -> list[str]:
    return [expect_string(row[field], f"{where}.{field}") for field in fields]


def _node(row: dict, where: str) -> Node:
    node_id, node_type = _texts(row, NODE_FIELDS, where)
    return Node(node_id, node_type, _properties(row, f"{where}.properties"))


def _edge(row: dict, where: str) -> Edge:
    source, relation, target = _texts(row, EDGE_FIELDS, where)
    return Edge(source, relation, target, _properties(row, f"{where}.properties"))


def decode(text: str) -> Graph:
    try:
        document = toon_format.loads(text, strict=False)
    except toon_format.ToonDecodeError as error:
        raise FormatError(f"invalid TOON: {error.msg}", f"line {error.line}" if error.line else "document",
                          "see the format's grammar", line=error.line) from None
    document = expect_object(document, "document")
    if set(document) != {"nodes", "edges"}:
        raise FormatError(f"the document has the keys {sorted(document)!r:.80}", "document",
                          "write a nodes table and an edges table")
    declared = _declared_lengths(text)
    nodes = [_node(row, f"nodes[{index}]")
             for index, row in enumerate(_rows(document, "nodes", NODE_FIELDS, declared.get("nodes")))]
    edges = [_edge(row, f"edges[{index}]")
             for index, row in enumerate(_rows(document, "edges", EDGE_FIELDS, declared.get("edges")))]
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="TOON tables",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example="edges[88]{source,relation,target}: then rows like  svc-api,depends_on,svc-auth",
    interleaves=False,
)
