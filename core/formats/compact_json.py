"""compact_json: one minified JSON object, nodes as [id, type] and edges as [source, relation, target]."""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import AtomKind, Format, Record, RecordText, Rendering, nodes_then_edges, record_memo
from core.formats.decoding import decoded_graph, expect_list, expect_object, expect_string, parse_json, properties_from
from core.formats.json_writing import add_compact_properties, add_scalar, string_fields_record
from core.graph.model import Edge, Graph, Node
from core.graph.units import Unit

NAME = "compact_json"

GRAMMAR = """\
The graph is one JSON object. "n" lists nodes as [id, type]; "e" lists edges as \
[source, relation, target], meaning: source --relation--> target. A trailing object in a node or \
edge array holds its properties."""


_NODE_LABELS, _EDGE_LABELS = ('["', '","', '"]'), ('["', '","', '","', '"]')
_NODE_KINDS: tuple[AtomKind, ...] = ("node_id", "node_type")
_EDGE_KINDS: tuple[AtomKind, ...] = ("node_id", "relation", "node_id")


def _node_record(node: Node, key: str, lead: str) -> Record:
    if not node.properties:  # the fixed text around the values, in one step (string_fields_record)
        return string_fields_record(key, lead, _NODE_LABELS, (node.id, node.type), _NODE_KINDS)
    return _array_record([(node.id, "node_id"), (node.type, "node_type")], node.properties, key, lead)


def _edge_record(edge: Edge, key: str, lead: str) -> Record:
    if not edge.properties:
        return string_fields_record(key, lead, _EDGE_LABELS, (edge.source, edge.relation, edge.target), _EDGE_KINDS)
    values: list[tuple[str, AtomKind]] = [(edge.source, "node_id"), (edge.relation, "relation"), (edge.target, "node_id")]
    return _array_record(values, edge.properties, key, lead)


def _array_record(values: list[tuple[str, AtomKind]], properties, key: str, lead: str) -> Record:
    record = RecordText()
    for index, (value, kind) in enumerate(values):
        add_scalar(record, value, kind, "," if index else lead + "[")
    if properties:
        record.add(",")
        add_compact_properties(record, properties)
    return record.add("]").build(key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    ordered = nodes_then_edges(units)
    node_count = sum(1 for unit in ordered if unit.is_node)
    records: list[Record] = []
    closings = ['],"e":[]}']
    memo = record_memo(graph, NAME)  # a record depends on its unit and its lead, for every ordering and layout
    for index, unit in enumerate(ordered):
        if unit.is_node:
            lead = "," if index else ""
            record = memo.get((unit.key, lead))
            if record is None:
                record = memo[unit.key, lead] = _node_record(unit.node, unit.key, lead)
            closings.append('],"e":[]}')
        else:
            lead = '],"e":[' if index == node_count else ","
            record = memo.get((unit.key, lead))
            if record is None:
                record = memo[unit.key, lead] = _edge_record(unit.edge, unit.key, lead)
            closings.append("]}")
        records.append(record)
    return Rendering(NAME, '{"n":[', tuple(records), tuple(closings))


def _fields(item: object, count: int, where: str) -> tuple[list[str], dict]:
    values = expect_list(item, where)
    has_properties = len(values) == count + 1
    if len(values) != count and not has_properties:
        raise FormatError(f"expected {count} values (and optionally a properties object), found "
                          f"{len(values)}", where, "see the format's grammar")
    texts = [expect_string(value, f"{where}[{index}]") for index, value in enumerate(values[:count])]
    return texts, (values[count] if has_properties else {})


def decode(text: str) -> Graph:
    document = expect_object(parse_json(text), "document")
    for section in ("n", "e"):
        if section not in document:
            raise FormatError(f'the document has no "{section}" array', "document",
                              f'add "{section}": [...] to the top-level object')
    nodes = []
    for index, item in enumerate(expect_list(document["n"], "n")):
        (node_id, node_type), properties = _fields(item, 2, f"n[{index}]")
        nodes.append(Node(node_id, node_type, properties_from(properties, f"n[{index}] properties")))
    edges = []
    for index, item in enumerate(expect_list(document["e"], "e")):
        (source, relation, target), properties = _fields(item, 3, f"e[{index}]")
        edges.append(Edge(source, relation, target, properties_from(properties, f"e[{index}] properties")))
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Compact JSON",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='{"n":[["svc-api","service"],...],"e":[["svc-api","depends_on","svc-auth"],...]}',
    interleaves=False,
)
