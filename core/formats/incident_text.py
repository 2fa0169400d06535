"""incident_text: GraphQA's "incident" encoding with direction and relation stated, plus type lines.

    svc-api is a service.
    svc-api depends_on: svc-auth, db-identity; owned_by: team-core.

A node's line states its type. An incidence line gathers the edges of one source node: for each
relation (in relation order) its targets (in the given order), so it reads source --relation-->
target. Lines come in the order of their first unit, so every prefix of lines is the rendering of
its own units. A name is written bare when it is a plain word (letters, digits, `_`, then also
`-/+@'`) and as a JSON string otherwise, so `.`, `,`, `;` and `:` inside names stay unambiguous;
properties follow the type or a target as a compact JSON object.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.formats.base import Format, Record, RecordText, Rendering, after_whole_records, record_memo, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import split_lines
from core.formats.quoting import Cursor, Names, add_properties
from core.graph.model import Edge, Graph, Node
from core.graph.units import EdgeUnit, NodeUnit, Unit, unit_edges

NAME = "incident_text"
NAMES = Names(extra="-/+@'")

GRAMMAR = """\
One sentence per line. "id is a type." gives a node's type. "s r1: a, b; r2: c." states the edges \
s --r1--> a, s --r1--> b and s --r2--> c. Names that are not plain words are JSON strings; a JSON \
object after a type or a target holds that node's or edge's properties."""

_FIX = 'write "id is a type." or "source relation: a, b; relation2: c."'


def _article(written: str) -> str:
    return "an" if written[0].lower() in "aeiou" else "a"


def _type_line(node: Node, lead: str, key: str) -> Record:
    written = NAMES.write(node.type)
    record = RecordText().add(lead).add(NAMES.write(node.id), "node_id").add(f" is {_article(written)} ")
    record.add(written, "node_type")
    add_properties(record, node.properties)
    return record.add(".").build(key)


def _incidence_line(source: str, edges: list[Edge], lead: str, keys: list[str]) -> Record:
    record = RecordText().add(lead).add(NAMES.write(source), "node_id").add(" ")
    for group, relation in enumerate(sorted({edge.relation for edge in edges})):
        record.add("; " if group else "").add(NAMES.write(relation), "relation").add(": ")
        for index, edge in enumerate(edge for edge in edges if edge.relation == relation):
            record.add(", " if index else "").add(NAMES.write(edge.target), "node_id")
            add_properties(record, edge.properties)
    return record.add(".").build(*keys)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    # Lines in the order of their first unit: a node unit is a line of its own, the edges of one source
    # share one. Grouped inline (no key object per unit): this loop runs for every ordering and layout.
    lines: list[NodeUnit | list[EdgeUnit]] = []
    by_source: dict[str, list[EdgeUnit]] = {}
    for unit in units:
        if unit.is_node:
            lines.append(unit)
        else:
            group = by_source.get(unit.edge.source)
            if group is None:
                lines.append(by_source.setdefault(unit.edge.source, [unit]))
            else:
                group.append(unit)
    # A line depends on its units (in their order) and on being the first or not: the orderings and
    # layouts of a sweep often group the same units into the same lines.
    memo = record_memo(graph, NAME)
    records = []
    lead = ""
    for line in lines:
        if isinstance(line, list):
            keys = tuple([unit.key for unit in line])
            record = memo.get((keys, lead))
            if record is None:
                record = memo[keys, lead] = _incidence_line(line[0].edge.source, unit_edges(line), lead, list(keys))
        else:
            record = memo.get((line.key, lead))
            if record is None:
                record = memo[line.key, lead] = _type_line(line.node, lead, line.key)
        records.append(record)
        lead = "\n"
    return without_closing(NAME, "", records)


def _decode_line(cursor: Cursor, nodes: list[Node], edges: list[Edge]) -> None:
    source = cursor.name(NAMES, "a node id")
    if cursor.take(" is a ") or cursor.take(" is an "):
        node_type = cursor.name(NAMES, "a node type")
        nodes.append(Node(source, node_type, cursor.optional_properties()))
    else:
        cursor.expect(" ", _FIX)
        while True:
            relation = cursor.name(NAMES, "a relation")
            cursor.expect(": ", _FIX)
            while True:
                target = cursor.name(NAMES, "a node id")
                edges.append(Edge(source, relation, target, cursor.optional_properties()))
                if not cursor.take(", "):
                    break
            if not cursor.take("; "):
                break
    cursor.expect(".", _FIX)
    cursor.end(_FIX)


def decode(text: str) -> Graph:
    nodes: list[Node] = []
    edges: list[Edge] = []
    for number, line in split_lines(text):
        if line:
            _decode_line(Cursor(line, number), nodes, edges)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Incident text (GraphQA style, relations stated)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each line (page) reads alone
    example="svc-api depends_on: svc-auth, db-identity; owned_by: team-core.",
)
