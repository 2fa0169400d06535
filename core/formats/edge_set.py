"""edge_set: the graph as one set of pairs `{(a, b), (b, c), d}` (GraphOmni's edge set). LOSSY.

Each edge is a pair (source, target) and each node a bare element; a name that is not a plain word
is a JSON string. Exactly what is lost: every node type, every relation name and every property,
as in `untyped_pairs` (decoded as type "node" and relation "related_to"). Ids, edge directions,
parallel edges (a repeated pair), self-loops and isolated nodes are kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, record_memo
from core.formats.decoding import decoded_graph
from core.formats.quoting import Cursor, Names
from core.formats.untyped_pairs import PLACEHOLDER_RELATION, PLACEHOLDER_TYPE
from core.formats.untyped_pairs import _image as untyped_image
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "edge_set"
NAMES = Names(extra="-./+@'")
LOST = 'node types, relation names and all properties (decoded as type "node" and relation "related_to")'
_FIX = "write {(a, b), (b, c), d}: pairs are edges, single names are nodes"

GRAMMAR = """\
One set {...}: each element (a, b) is an edge from a to b, each single name a node. Names that \
are not plain words are JSON strings. Node types and relation names are not given."""


def _record(unit: Unit, lead: str) -> Record:
    record = RecordText().add(lead)
    if unit.is_node:
        return record.add(NAMES.write(unit.node.id), "node_id").build(unit.key)
    record.add("(").add(NAMES.write(unit.edge.source), "node_id").add(", ")
    return record.add(NAMES.write(unit.edge.target), "node_id").add(")").build(unit.key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)
    records = []
    for index, unit in enumerate(units):
        lead = ", " if index else ""
        record = memo.get((unit.key, lead))
        if record is None:
            record = memo[unit.key, lead] = _record(unit, lead)
        records.append(record)
    return Rendering(NAME, "{", tuple(records), ("}",) * (len(records) + 1))


def decode(text: str) -> Graph:
    if "\n" in text.rstrip("\n"):
        raise FormatError("the set spans several lines", f"line {text.count(chr(10), 0, text.index(chr(10))) + 2}",
                          "write the whole set on one line", line=2)
    cursor = Cursor(text.rstrip("\n"), 1)
    cursor.expect("{", _FIX)
    nodes, edges = [], []
    if not cursor.take("}"):
        while True:
            if cursor.take("("):
                source = cursor.name(NAMES, "a node id")
                cursor.expect(", ", _FIX)
                edges.append(Edge(source, PLACEHOLDER_RELATION, cursor.name(NAMES, "a node id")))
                cursor.expect(")", _FIX)
            else:
                nodes.append(Node(cursor.name(NAMES, "a node id"), PLACEHOLDER_TYPE))
            if cursor.take("}"):
                break
            cursor.expect(", ", _FIX)
    cursor.end(_FIX)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Edge set (lossy)",
    lossless=False,
    lost=LOST,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    image=untyped_image,  # each element decodes alone to the same image as an untyped pair
    example="{svc-api, (svc-api, svc-auth)}",
)
