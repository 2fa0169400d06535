"""structured_json: the lab's variant of KG-LLM-Bench's structured JSON, subject -> relation -> [objects], with types.

KG-LLM-Bench's own text, as its generator writes it, is `kgllm_structured_json`.

The full rendering is exactly `json.dumps(document, indent=2, ensure_ascii=False)` of

    {"svc-api": {"type": "service", "depends_on": ["svc-auth", "db-identity"], ...}, ...}

A node's mapping holds its "type", its "properties" (when it has any) and one list of targets per
relation; an edge with properties is listed as {"target": ..., "properties": {...}}; a parallel
edge repeats its target. Relation keys that collide with the node's own fields are escaped as the
shared subject grouping says.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, record_memo
from core.formats.decoding import decoded_graph, expect_list, expect_object, expect_string, parse_json, properties_from
from core.formats.json_writing import add_scalar
from core.formats.subject_groups import escape_key, subject_groups, unescape_key
from core.graph.model import Edge, Graph, Node, Properties
from core.graph.units import Unit

NAME = "structured_json"
RESERVED = ("type", "properties")
_SUBJECT = "\n  "
_KEY = "\n    "
_ITEM = "\n      "
_CLOSE_NODE = "\n  }"  # a subject whose last record is its node
_CLOSE_LIST = "\n    ]\n  }"  # a subject whose last record is an edge

GRAMMAR = """\
One JSON object: each key is a node id (the subject), its value an object with the node's "type", \
its "properties" object if any, and per relation a list of target ids: "a": {"r": ["b"]} means \
a --r--> b. A repeated target is a parallel edge; {"target": id, "properties": {...}} is an edge \
with properties. A relation named type or properties, or starting with ~, gets an extra leading ~."""


def _add_properties(record: RecordText, properties: Properties, indent: str) -> None:
    record.add("{")
    for index, (key, value) in enumerate(properties):
        record.add(("," if index else "") + indent + "  ")
        add_scalar(record, key, "property_key")
        record.add(": ")
        add_scalar(record, value, "property_value")
    record.add(indent + "}")


def _add_target(record: RecordText, edge: Edge) -> None:
    if not edge.properties:
        add_scalar(record, edge.target, "node_id")
        return
    record.add("{" + _ITEM + '  "target": ')
    add_scalar(record, edge.target, "node_id")
    record.add("," + _ITEM + '  "properties": ')
    _add_properties(record, edge.properties, _ITEM + "  ")
    record.add(_ITEM + "}")


def _open_subject(record: RecordText, subject: str, lead: str) -> None:
    record.add(lead + _SUBJECT)
    add_scalar(record, subject, "node_id")
    record.add(": {" + _KEY)


def _node_record(node: Node, key: str, lead: str) -> Record:
    record = RecordText()
    _open_subject(record, node.id, lead)
    record.add('"type": ')
    add_scalar(record, node.type, "node_type")
    if node.properties:
        record.add("," + _KEY + '"properties": ')
        _add_properties(record, node.properties, _KEY)
    return record.build(key)


def _edge_record(edge: Edge, key: str, place: int, lead: str) -> Record:
    """place: 0 a later item of its list, 1 opening its subject and list, 2 opening a later list, 3 the first list."""
    record = RecordText()
    if place == 0:
        record.add("," + _ITEM)
    else:
        if place == 1:
            _open_subject(record, edge.source, lead)
        else:
            record.add(("\n    ]," if place == 2 else ",") + _KEY)
        add_scalar(record, escape_key(edge.relation, RESERVED), "relation")
        record.add(": [" + _ITEM)
    _add_target(record, edge)
    return record.build(key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    records: list[Record] = []
    closings = ["}"]
    close_previous = ""  # what ends the previous subject before a "," and the next one
    # A record depends on its unit, its place in its subject and list, and what ends the subject before
    # it: the orderings and layouts of a sweep write most units in the same places.
    memo = record_memo(graph, NAME)
    for group in subject_groups(units):
        lead = close_previous + ("," if records else "")
        if group.node is not None:
            variant: tuple = (group.node.key, lead)
            record = memo.get(variant)
            if record is None:
                record = memo[variant] = _node_record(group.node.node, group.node.key, lead)
            records.append(record)
            closings.append(_CLOSE_NODE + "\n}")
        for relation_index, edges in enumerate(group.relations.values()):
            for edge_index, unit in enumerate(edges):
                if edge_index:
                    place, edge_lead = 0, ""
                elif group.node is None and relation_index == 0:
                    place, edge_lead = 1, lead
                else:
                    place, edge_lead = (2 if relation_index else 3), ""
                variant = (unit.key, place, edge_lead)
                record = memo.get(variant)
                if record is None:
                    record = memo[variant] = _edge_record(unit.edge, unit.key, place, edge_lead)
                records.append(record)
                closings.append(_CLOSE_LIST + "\n}")
        close_previous = _CLOSE_LIST if group.relations else _CLOSE_NODE
    return Rendering(NAME, "{", tuple(records), tuple(closings))


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise FormatError(f"the key {key!r:.60} appears twice in one object", f"key {key!r:.60}",
                              "give each subject, relation and field once; list every target of a "
                              "relation in its one list")
        seen.add(key)
    return dict(pairs)


def _parse(text: str) -> object:
    return parse_json(text, "document", object_pairs_hook=_unique_keys)


def _edge(subject: str, relation: str, item: object, where: str) -> Edge:
    if isinstance(item, str):
        return Edge(subject, relation, item)
    item = expect_object(item, where)
    if set(item) not in ({"target"}, {"target", "properties"}):
        raise FormatError(f"an edge object has the keys {sorted(item)!r:.80}", where,
                          'write a target id, or {"target": id, "properties": {...}}')
    return Edge(subject, relation, expect_string(item["target"], f"{where}.target"),
                properties_from(item.get("properties", {}), f"{where}.properties"))


def graph_from_document(document: object) -> Graph:
    """The graph a subject -> relation -> [objects] document describes (shared with the yaml format)."""
    nodes: list[Node] = []
    edges: list[Edge] = []
    for subject, body in expect_object(document, "document").items():
        where = f"subject {subject!r:.60}"
        subject = expect_string(subject, where)
        body = expect_object(body, where)
        if "type" in body:
            nodes.append(Node(subject, expect_string(body["type"], f"{where}.type"),
                              properties_from(body.get("properties", {}), f"{where}.properties")))
        elif "properties" in body:
            raise FormatError("a subject has properties but no type", where,
                              "give the node its type next to its properties")
        for key, targets in body.items():
            key = expect_string(key, f"{where} key")
            if key in RESERVED:
                continue
            relation = unescape_key(key)
            for index, item in enumerate(expect_list(targets, f"{where}.{key}")):
                edges.append(_edge(subject, relation, item, f"{where}.{key}[{index}]"))
    return decoded_graph(nodes, edges)


def decode(text: str) -> Graph:
    return graph_from_document(_parse(text))


FORMAT = Format(
    name=NAME,
    title="Structured JSON (subject → relation → objects)",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='{"svc-api": {"type": "service", "depends_on": ["svc-auth"], "owned_by": ["team-core"]}} (indented)',
)
