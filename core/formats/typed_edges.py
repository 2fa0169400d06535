"""typed_edges: `#graph-v1`, then `N|id|type` and `E|source|relation|target` lines with escaped fields."""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import AtomKind, Format, RecordText, Rendering, after_whole_records, record_memo, without_closing
from core.formats.decoding import decoded_graph, properties_from_json
from core.formats.escaping import escape_atom, split_fields
from core.graph.model import Edge, Graph, Node, properties_json
from core.graph.units import Unit

NAME = "typed_edges"
VERSION_MARKER = "#graph-v1"

GRAMMAR = """\
First line #graph-v1. Then one record per line, fields separated by |: N|id|type is a node; \
E|source|relation|target is an edge: source --relation--> target. In a field, \\p stands for |, \
\\n for a line break, \\r for a carriage return and \\\\ for a backslash. An optional last field \
holds the properties as a JSON object."""


def _line(prefix: str, atoms: list[tuple[str, AtomKind]], properties, key: str):
    record = RecordText().add("\n" + prefix)
    for value, kind in atoms:
        record.add("|").add(escape_atom(value), kind)
    if properties:
        record.add("|").add(escape_atom(properties_json(properties)), "property_value")
    return record.build(key)


def _unit_line(unit: Unit):
    if unit.is_node:
        node = unit.node
        return _line("N", [(node.id, "node_id"), (node.type, "node_type")], node.properties, unit.key)
    edge = unit.edge
    atoms: list[tuple[str, AtomKind]] = [(edge.source, "node_id"), (edge.relation, "relation"), (edge.target, "node_id")]
    return _line("E", atoms, edge.properties, unit.key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a line depends on its unit only
    records = []
    for unit in units:
        record = memo.get(unit.key)
        if record is None:
            record = memo[unit.key] = _unit_line(unit)
        records.append(record)
    return without_closing(NAME, VERSION_MARKER, records)


def decode(text: str) -> Graph:
    lines = text.split("\n")
    if lines[0].rstrip("\r") != VERSION_MARKER:
        raise FormatError(f"the first line is not {VERSION_MARKER}", "line 1",
                          f"start the text with the version marker {VERSION_MARKER}", line=1)
    nodes, edges = [], []
    for number, line in enumerate(lines[1:], start=2):
        line = line.removesuffix("\r")  # a CRLF copy: rendered text never holds a raw \r
        if not line:
            continue
        fields = split_fields(line, number)
        kind, count = fields[0], len(fields)
        where = f"line {number}"
        if kind == "N" and count in (3, 4):
            properties = properties_from_json(fields[3], where) if count == 4 else ()
            nodes.append(Node(fields[1], fields[2], properties))
        elif kind == "E" and count in (4, 5):
            properties = properties_from_json(fields[4], where) if count == 5 else ()
            edges.append(Edge(fields[1], fields[2], fields[3], properties))
        else:
            raise FormatError(f"not a node or edge record: {line[:60]!r}", where,
                              "write N|id|type or E|source|relation|target", line=number)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Typed edge list",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each line (page) reads alone
    example="E|svc-api|depends_on|svc-auth",
)
