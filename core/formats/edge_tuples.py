"""edge_tuples: the lab's variant of KG-LLM-Bench's list of edges, `(subject, relation, object)`, plus `(id, type)` lines.

KG-LLM-Bench's own text, as its generator writes it, is `kgllm_list_of_edges`.

    (svc-api, service)
    (svc-api, depends_on, svc-auth)

One line per unit in the given order: a 2-tuple names a node and its type, a 3-tuple is an edge.
A name is written bare when it is a plain word (letters, digits, `_`, then also `-./:+@'`) and as a
JSON string otherwise, so commas, parentheses and spaces inside names stay unambiguous; properties
are a last element written as a compact JSON object: `(svc-api, service, {"tier":1})`.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.formats.base import Format, Record, RecordText, Rendering, after_whole_records, record_memo, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import split_lines
from core.formats.quoting import Cursor, Names, add_properties
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "edge_tuples"
NAMES = Names(extra="-./:+@'")

GRAMMAR = """\
One tuple per line. (id, type) is a node with its type; (subject, relation, object) is an edge: \
subject --relation--> object. Names that are not plain words are JSON strings; a last element that \
is a JSON object holds the node's or edge's properties."""

_FIX = "write (id, type) or (subject, relation, object)"


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a record depends on its unit, and on being the first or not
    records = []
    for index, unit in enumerate(units):
        lead = "\n(" if index else "("
        record = memo.get((unit.key, lead))
        if record is None:
            record = memo[unit.key, lead] = _unit_record(unit, lead)
        records.append(record)
    return without_closing(NAME, "", records)


def _unit_record(unit: Unit, lead: str) -> Record:
    record = RecordText().add(lead)
    if unit.is_node:
        record.add(NAMES.write(unit.node.id), "node_id").add(", ").add(NAMES.write(unit.node.type), "node_type")
        add_properties(record, unit.node.properties, ", ")
    else:
        edge = unit.edge
        record.add(NAMES.write(edge.source), "node_id").add(", ").add(NAMES.write(edge.relation), "relation")
        record.add(", ").add(NAMES.write(edge.target), "node_id")
        add_properties(record, edge.properties, ", ")
    return record.add(")").build(unit.key)


def decode(text: str) -> Graph:
    nodes, edges = [], []
    for number, line in split_lines(text):
        if not line:
            continue
        cursor = Cursor(line, number)
        cursor.expect("(", _FIX)
        first = cursor.name(NAMES, "a node id")
        cursor.expect(", ", _FIX)
        second = cursor.name(NAMES, "a type or relation")
        properties = cursor.optional_properties(", ")
        if properties or cursor.startswith(")"):
            nodes.append(Node(first, second, properties))
        else:
            cursor.expect(", ", _FIX)
            target = cursor.name(NAMES, "a node id")
            edges.append(Edge(first, second, target, cursor.optional_properties(", ")))
        cursor.expect(")", _FIX)
        cursor.end(_FIX)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Edge tuples (subject, relation, object)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each line (page) reads alone
    example="(svc-api, depends_on, svc-auth) and (svc-api, service)",
)
