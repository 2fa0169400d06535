"""jsonl: one minified JSON object per line, "k" saying whether the line is a node or an edge."""

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
    record_memo,
    without_closing,
)
from core.formats.decoding import decoded_graph, expect_object, expect_string, parse_json, properties_from
from core.formats.json_writing import add_compact_properties, add_scalar
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "jsonl"

GRAMMAR = """\
One JSON object per line. {"k":"n","id":...,"t":...} is a node with its type; \
{"k":"e","s":...,"r":...,"t":...} is an edge: s --r--> t. An optional "p" object holds properties."""


def _record(fields: list[tuple[str, str, AtomKind | None]], properties, key: str, lead: str) -> Record:
    record = RecordText().add(lead + "{")
    for index, (name, value, kind) in enumerate(fields):
        record.add(f'{"," if index else ""}"{name}":')
        add_scalar(record, value, kind)
    if properties:
        record.add(',"p":')
        add_compact_properties(record, properties)
    return record.add("}").build(key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a line depends on its unit, and on being the first line or not
    records = []
    for index, unit in enumerate(units):
        lead = "\n" if index else ""
        record = memo.get((unit.key, lead))
        if record is None:
            record = memo[unit.key, lead] = _unit_record(unit, lead)
        records.append(record)
    return without_closing(NAME, "", records)


def _unit_record(unit: Unit, lead: str) -> Record:
    if unit.is_node:
        node = unit.node
        node_fields: list[tuple[str, str, AtomKind | None]] = [("k", "n", None), ("id", node.id, "node_id"),
                                                              ("t", node.type, "node_type")]
        return _record(node_fields, node.properties, unit.key, lead)
    edge = unit.edge
    fields: list[tuple[str, str, AtomKind | None]] = [("k", "e", None), ("s", edge.source, "node_id"), ("r", edge.relation, "relation"),
                                                      ("t", edge.target, "node_id")]
    return _record(fields, edge.properties, unit.key, lead)


def _decode_line(line: str, number: int, nodes: list, edges: list) -> None:
    where = f"line {number}"
    value = expect_object(parse_json(line, line=number), where)
    properties = properties_from(value.get("p", {}), f"{where} properties")
    kind = value.get("k")
    if kind == "n":
        nodes.append(Node(expect_string(value.get("id"), f"{where} id"),
                          expect_string(value.get("t"), f"{where} t"), properties))
    elif kind == "e":
        edges.append(Edge(expect_string(value.get("s"), f"{where} s"), expect_string(value.get("r"), f"{where} r"),
                          expect_string(value.get("t"), f"{where} t"), properties))
    else:
        raise FormatError(f"unknown record kind {kind!r}", where, 'use "k":"n" for a node or "k":"e" for an edge',
                          line=number)


def decode(text: str) -> Graph:
    nodes: list[Node] = []
    edges: list[Edge] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            _decode_line(line, number, nodes, edges)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="JSON Lines",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each line (page) reads alone
    example='{"k":"e","s":"svc-api","r":"depends_on","t":"svc-auth"}',
)
