"""adjacency_list: one line per node, `a: b, c` listing the targets of its edges (GraphOmni's adjacency list). LOSSY.

    svc-api: svc-auth, team-core
    svc-auth: db-identity

A line covers a node and its outgoing edges (the units grouped by source, in the order of each
group's first unit); a target repeats once per parallel edge, and a node without outgoing edges
is `a:`. Names that are not plain words are JSON strings. Exactly what is lost: every node type,
every relation name and every property (decoded as type "node" and relation "related_to"); a
source whose own node is not among the rendered units is decoded as a node too.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.formats.base import Format, Record, RecordText, Rendering, without_closing
from core.formats.decoding import decoded_graph
from core.formats.grouping import grouped, split_lines
from core.formats.quoting import Cursor, Names
from core.formats.untyped_pairs import PLACEHOLDER_RELATION, PLACEHOLDER_TYPE
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "adjacency_list"
NAMES = Names(extra="-./+@'")
LOST = ('node types, relation names and all properties (decoded as type "node" and relation "related_to"); '
        "a source named only by its edges reads as a node")
_FIX = "write `a: b, c` (a node and the targets of its edges) or `a:`"

GRAMMAR = """\
One line per node: `a: b, c` means edges from a to b and from a to c (a target repeats for each \
parallel edge); `a:` is a node without outgoing edges. Names that are not plain words are JSON \
strings. Node types and relation names are not given."""


def _carrier(unit: Unit) -> str:
    return unit.node.id if unit.is_node else unit.edge.source


def _record(source: str, units: list[Unit], lead: str) -> Record:
    record = RecordText().add(lead).add(NAMES.write(source), "node_id").add(":")
    targets = [unit for unit in units if not unit.is_node]
    for index, unit in enumerate(targets):
        record.add(", " if index else " ").add(NAMES.write(unit.edge.target), "node_id")
    return record.build(*(unit.key for unit in units))


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    records = [_record(source, group, "\n" if index else "") for index, (source, group) in
               enumerate(grouped(units, _carrier))]
    return without_closing(NAME, "", records)


def decode(text: str) -> Graph:
    nodes, edges = [], []
    for number, line in split_lines(text):
        if not line:
            continue
        cursor = Cursor(line, number)
        source = cursor.name(NAMES, "a node id")
        cursor.expect(":", _FIX)
        nodes.append(Node(source, PLACEHOLDER_TYPE))
        if cursor.take(" "):
            while True:
                edges.append(Edge(source, PLACEHOLDER_RELATION, cursor.name(NAMES, "a node id")))
                if not cursor.take(", "):
                    break
        cursor.end(_FIX)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Adjacency list (lossy)",
    lossless=False,
    lost=LOST,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    # no tail_start nor image: a source line may stand for edges without its node, so a cut is read by decoding it
    example="svc-api: svc-auth, team-core",
)
