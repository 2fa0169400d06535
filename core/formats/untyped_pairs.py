"""untyped_pairs: `a b` per edge and `a` per node. LOSSY on purpose: no node types, no relations.

    svc-api
    svc-api svc-auth

The cheapest text a graph can be written in, kept to show what it costs: a reader can follow the
direction of every edge but cannot tell a dependency from an ownership, nor a service from a team.
Exactly what is lost: every node type, every relation name and every property. Ids, edge directions,
parallel edges, self-loops and isolated nodes are kept (a name that is not a plain word is a JSON
string). Decoding gives each node the placeholder type "node" (or "unknown" for an endpoint whose
node line is absent, as in every format) and each edge the placeholder relation "related_to", so a
traversal can be measured on the result and is expected to fail wherever it filters on a type or a
relation.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.formats.base import Format, Record, RecordText, Rendering, after_whole_records, record_memo, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import split_lines
from core.formats.quoting import Cursor, Names
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "untyped_pairs"
NAMES = Names(extra="-./:+@'")
PLACEHOLDER_TYPE = "node"
PLACEHOLDER_RELATION = "related_to"
LOST = "node types, relation names and all properties (decoded as type \"node\" and relation \"related_to\")"

GRAMMAR = """\
One line per node or edge. A line "a b" is an edge from a to b; a line "a" names a node. Names \
that are not plain words are JSON strings. Node types and relation names are not given."""

_FIX = 'write "a b" for an edge or "a" for a node'


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a record depends on its unit, and on being the first or not
    records = []
    for index, unit in enumerate(units):
        lead = "\n" if index else ""
        record = memo.get((unit.key, lead))
        if record is None:
            record = memo[unit.key, lead] = _unit_record(unit, lead)
        records.append(record)
    return without_closing(NAME, "", records)


def _unit_record(unit: Unit, lead: str) -> Record:
    record = RecordText().add(lead)
    if unit.is_node:
        record.add(NAMES.write(unit.node.id), "node_id")
    else:
        record.add(NAMES.write(unit.edge.source), "node_id").add(" ").add(NAMES.write(unit.edge.target), "node_id")
    return record.build(unit.key)


def decode(text: str) -> Graph:
    nodes, edges = [], []
    for number, line in split_lines(text):
        if not line:
            continue
        cursor = Cursor(line, number)
        first = cursor.name(NAMES, "a node id")
        if cursor.take(" "):
            edges.append(Edge(first, PLACEHOLDER_RELATION, cursor.name(NAMES, "a node id")))
        else:
            nodes.append(Node(first, PLACEHOLDER_TYPE))
        cursor.end(_FIX)
    return decoded_graph(nodes, edges)


def _image(unit: Unit) -> Node | Edge:
    """What decoding gives back of a unit: its id with the placeholder type, or its ends with the placeholder relation."""
    if unit.is_node:
        return Node(unit.node.id, PLACEHOLDER_TYPE)
    return Edge(unit.edge.source, PLACEHOLDER_RELATION, unit.edge.target)


FORMAT = Format(
    name=NAME,
    title="Untyped pairs (lossy)",
    lossless=False,
    lost=LOST,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,
    image=_image,  # each line (page) reads alone
    example="svc-api svc-auth",
)
