"""pretty_json: one JSON object with "nodes" and "edges" arrays, indented by two spaces."""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, nodes_then_edges, record_memo
from core.formats.decoding import decoded_graph, expect_list, expect_object, expect_string, parse_json, properties_from
from core.formats.json_writing import add_scalar, string_fields_record
from core.graph.model import Edge, Graph, Node, Properties
from core.graph.units import Unit

NAME = "pretty_json"
_ITEM = "\n    "  # an array item sits at depth 2
_FIELD = "\n      "
_PREAMBLE = '{\n  "nodes": ['
_EMPTY_NODES_TO_EDGES = '],\n  "edges": ['
_NODES_TO_EDGES = '\n  ],\n  "edges": ['
_CLOSE_IN_NODES = {True: '\n  ],\n  "edges": []\n}', False: '],\n  "edges": []\n}'}
_CLOSE_IN_EDGES = "\n  ]\n}"

GRAMMAR = """\
The graph is one JSON object. "nodes" lists objects with "id" and "type"; "edges" lists objects \
with "source", "relation" and "target", meaning: source --relation--> target. An optional \
"properties" object holds a node's or edge's attributes."""


def _add_properties(record: RecordText, properties: Properties) -> None:
    if not properties:
        return
    record.add(f',{_FIELD}"properties": {{')
    for index, (key, value) in enumerate(properties):
        add_scalar(record, key, "property_key", ("," if index else "") + _FIELD + "  ")
        add_scalar(record, value, "property_value", ": ")
    record.add(f"{_FIELD}}}")


# The fixed text around a record's values when it has no properties (string_fields_record).
_NODE_LABELS = (f'{_ITEM}{{{_FIELD}"id": "', f'",{_FIELD}"type": "', f'"{_ITEM}}}')
_EDGE_LABELS = (f'{_ITEM}{{{_FIELD}"source": "', f'",{_FIELD}"relation": "', f'",{_FIELD}"target": "', f'"{_ITEM}}}')


def _node_record(node: Node, key: str, lead: str) -> Record:
    if not node.properties:
        return string_fields_record(key, lead, _NODE_LABELS, (node.id, node.type), ("node_id", "node_type"))
    record = RecordText()
    add_scalar(record, node.id, "node_id", f'{lead}{_ITEM}{{{_FIELD}"id": ')
    add_scalar(record, node.type, "node_type", f',{_FIELD}"type": ')
    _add_properties(record, node.properties)
    return record.add(_ITEM + "}").build(key)


def _edge_record(edge: Edge, key: str, lead: str) -> Record:
    if not edge.properties:
        return string_fields_record(key, lead, _EDGE_LABELS, (edge.source, edge.relation, edge.target),
                                    ("node_id", "relation", "node_id"))
    record = RecordText()
    add_scalar(record, edge.source, "node_id", f'{lead}{_ITEM}{{{_FIELD}"source": ')
    add_scalar(record, edge.relation, "relation", f',{_FIELD}"relation": ')
    add_scalar(record, edge.target, "node_id", f',{_FIELD}"target": ')
    _add_properties(record, edge.properties)
    return record.add(_ITEM + "}").build(key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    ordered = nodes_then_edges(units)
    node_count = sum(1 for unit in ordered if unit.is_node)
    records: list[Record] = []
    closings = [_CLOSE_IN_NODES[False]]
    memo = record_memo(graph, NAME)  # a record depends on its unit and its lead, for every ordering and layout
    for index, unit in enumerate(ordered):
        if unit.is_node:
            lead = "," if index else ""
            record = memo.get((unit.key, lead))
            if record is None:
                record = memo[unit.key, lead] = _node_record(unit.node, unit.key, lead)
            closings.append(_CLOSE_IN_NODES[True])
        else:
            opens_edges = index == node_count
            lead = (_NODES_TO_EDGES if node_count else _EMPTY_NODES_TO_EDGES) if opens_edges else ","
            record = memo.get((unit.key, lead))
            if record is None:
                record = memo[unit.key, lead] = _edge_record(unit.edge, unit.key, lead)
            closings.append(_CLOSE_IN_EDGES)
        records.append(record)
    return Rendering(NAME, _PREAMBLE, tuple(records), tuple(closings))


def decode(text: str) -> Graph:
    document = expect_object(parse_json(text), "document")
    for section in ("nodes", "edges"):
        if section not in document:
            raise FormatError(f'the document has no "{section}" array', "document",
                              f'add "{section}": [...] to the top-level object')
    nodes = []
    for index, item in enumerate(expect_list(document["nodes"], "nodes")):
        where = f"nodes[{index}]"
        item = expect_object(item, where)
        nodes.append(Node(expect_string(item.get("id"), f"{where}.id"),
                          expect_string(item.get("type"), f"{where}.type"),
                          properties_from(item.get("properties", {}), f"{where}.properties")))
    edges = []
    for index, item in enumerate(expect_list(document["edges"], "edges")):
        where = f"edges[{index}]"
        item = expect_object(item, where)
        edges.append(Edge(expect_string(item.get("source"), f"{where}.source"),
                          expect_string(item.get("relation"), f"{where}.relation"),
                          expect_string(item.get("target"), f"{where}.target"),
                          properties_from(item.get("properties", {}), f"{where}.properties")))
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="Pretty JSON",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='{"nodes": [{"id": "svc-api", "type": "service"}, ...], "edges": [...]} (indented)',
    interleaves=False,
)
