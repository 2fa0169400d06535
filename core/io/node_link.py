"""Node-link JSON (the networkx layout): read it with `edges` or `links`, write it losslessly with a schema.

Reading: `nodes` is a list of objects with an `id` (text, or a whole number taken as its decimal
text: 1 and "1" in one file are refused, or read as one node with a notice under duplicates 'merge'); `edges` (or `links`) a list of objects with `source` and `target`. The node type comes from
`labelV`, `type` or `label` (the first the file uses, or the one chosen), the relation from `labelE`,
`relation` or `label`; every other member is a property, and a `properties` object is unpacked into
properties. Null, list and object values become their compact JSON text. A multigraph edge `key` is
an index, not content, and is dropped. `"directed": false` gives each edge in both directions. An
optional top-level `schema` member holds type definitions and relation readings:
    {"types": {"station": "a place where ..."},
     "relations": [{"relation": "serves", "forward": "serves", "inverse": "is served by",
                    "source_types": ["line"], "target_types": ["station"]}]}
Writing: {"directed": true, "multigraph": true, "graph": {}, "nodes": [...], "edges": [...]} with
`type`, `relation` and a `properties` object, one node or edge per line, and the schema if any.
"""

from __future__ import annotations

import json
import math

from core.errors import LoadError
from core.graph.model import Edge, Graph, Node, PropertyValue, RelationReading, Schema
from core.io.building import (
    IdSpellings,
    build_graph,
    check_endpoints,
    frozen_properties,
    property_value,
    undirected_notice,
)
from core.io.limits import DEFAULT_LIMITS, LimitError, Limits
from core.io.options import DEFAULT_OPTIONS, LoadOptions
from core.io.text import decode_utf8

_FIX_SHAPE = 'write {"nodes": [{"id": ...}, ...], "edges": [{"source": ..., "target": ...}, ...]}'


def parse_node_link(data: bytes, *, source: str = "graph.json", options: LoadOptions = DEFAULT_OPTIONS,
                    limits: Limits = DEFAULT_LIMITS) -> Graph:
    limits.check_bytes(len(data), source)
    document = parse_json_document(decode_utf8(data, source), source, limits)
    if not isinstance(document, dict):
        raise LoadError(f"the JSON document is {_kind(document)}, not an object", source, _FIX_SHAPE)
    if "nodes" not in document:
        raise LoadError("the JSON object has no `nodes` member", source, _FIX_SHAPE)
    if "edges" in document and "links" in document:
        raise LoadError("the JSON object has both `edges` and `links`", source, "keep one of them")
    edges_member = "links" if "links" in document else "edges"
    directed = document.get("directed", True)
    if not isinstance(directed, bool):
        raise LoadError(f"`directed` is {_kind(directed)}", source, "write true or false")
    node_records = _list(document["nodes"], "nodes", source)
    edge_records = _list(document.get(edges_member, []), edges_member, source)
    limits.check_counts(len(node_records), len(edge_records), source)  # before the records are read one by one
    type_attribute = options.node_type_from(_member_names(node_records, ("id", "properties")))
    relation_attribute = options.relation_from(_member_names(edge_records, ("source", "target", "key", "properties")))
    spellings = IdSpellings(source, options, "once ids are read as text (a whole number as its digits)")
    nodes = [_node(record, index, type_attribute, source, options, spellings) for index, record in enumerate(node_records)]
    edges = []
    for index, record in enumerate(edge_records):
        edge, where = _edge(record, f"{edges_member}[{index}]", relation_attribute, source, options, spellings)
        edges.append((edge, where))
        if not directed and edge.source != edge.target:
            edges.append((Edge(edge.target, edge.relation, edge.source, edge.properties), where))
    check_endpoints(edges, {node.id for node in nodes}, source, options)
    spellings.notice()
    if not directed:
        undirected_notice(source, len(edge_records), len(edges), '"directed": false')
    schema = _schema(document["schema"], source) if "schema" in document else None
    return build_graph(nodes, [edge for edge, _ in edges], source, options, schema, limits)


def parse_json_document(text: str, source: str, limits: Limits) -> object:
    """json.loads, refusing NaN and Infinity, with nesting deeper than the limit refused."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as error:
        raise LoadError(f"invalid JSON: {error.msg}", f"{source}, line {error.lineno}, column {error.colno}",
                        "check the brackets, quotes and commas") from None
    except ValueError as error:  # a NaN or Infinity, or a number too long to read
        raise LoadError(f"invalid JSON: {error}", source, "write finite numbers (NaN and Infinity are not JSON)") from None
    except RecursionError:
        raise LimitError("the file nests too deeply to read", source,
                         f"a graph document needs only a few levels (the limit is {limits.max_depth})") from None
    limits.check_depth(_depth(value), source)
    return value


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    """`1e999` is valid JSON but overflows to infinity, which the model refuses (as it refuses NaN)."""
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:40]} is too large for a decimal (it would be infinite)")
    return value


def _depth(value: object) -> int:
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return deepest


def _kind(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "true/false", type(None): "null"}
    return names.get(type(value), f"a number ({value!r:.20})")


def _list(value: object, member: str, source: str) -> list:
    if not isinstance(value, list):
        raise LoadError(f"`{member}` is {_kind(value)}, not an array", source, _FIX_SHAPE)
    return value


def _member_names(records: list, reserved: tuple[str, ...]) -> set[str]:
    return {name for record in records if isinstance(record, dict) for name in record if name not in reserved}


def _identifier(value: object, source: str, where: str, member: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise LoadError(f"`{member}` is {_kind(value)}", f"{source}, {where}", "write ids as text (or whole numbers)")


def _values(record: dict, reserved: tuple[str, ...], label_attribute: str | None
            ) -> list[tuple[str, PropertyValue]]:
    values: list[tuple[str, PropertyValue]] = []
    for name, value in record.items():
        if name in reserved or name == label_attribute:
            continue
        if name == "properties" and isinstance(value, dict):
            values.extend((key, property_value(item)) for key, item in value.items())
        else:
            values.append((name, property_value(value)))
    return values


def _label(record: dict, attribute: str | None, default: str, source: str, where: str) -> str:
    if attribute is None or attribute not in record:
        return default
    value = record[attribute]
    if isinstance(value, (dict, list)) or value is None:
        raise LoadError(f"`{attribute}` is {_kind(value)}", f"{source}, {where}", "write the type or relation as text")
    return value if isinstance(value, str) else json.dumps(value)


def _node(record: object, index: int, type_attribute: str | None, source: str, options: LoadOptions,
          spellings: IdSpellings) -> Node:
    where = f"nodes[{index}]"
    if not isinstance(record, dict):
        raise LoadError(f"a node is {_kind(record)}, not an object", f"{source}, {where}", _FIX_SHAPE)
    if "id" not in record:
        raise LoadError("a node has no `id`", f"{source}, {where}", 'give every node an "id"')
    node_id = spellings.text(record["id"], _identifier(record["id"], source, where, "id"), where)
    where = f"{where} (id {node_id[:80]!r})"
    node_type = _label(record, type_attribute, options.default_node_type, source, where)
    properties = frozen_properties(_values(record, ("id",), type_attribute), source, where)
    number = record["id"]  # kept beside the text, for the formats that write numbers as numbers
    return Node(node_id, node_type, properties, number if type(number) is int else None)


def _edge(record: object, where: str, relation_attribute: str | None, source: str, options: LoadOptions,
          spellings: IdSpellings) -> tuple[Edge, str]:
    if not isinstance(record, dict):
        raise LoadError(f"an edge is {_kind(record)}, not an object", f"{source}, {where}", _FIX_SHAPE)
    for member in ("source", "target"):
        if member not in record:
            raise LoadError(f"an edge has no `{member}`", f"{source}, {where}", 'give every edge a "source" and a "target"')
    start = spellings.text(record["source"], _identifier(record["source"], source, where, "source"), f"{where}.source")
    end = spellings.text(record["target"], _identifier(record["target"], source, where, "target"), f"{where}.target")
    relation = _label(record, relation_attribute, options.default_relation, source, where)
    properties = frozen_properties(_values(record, ("source", "target", "key"), relation_attribute), source, where)
    return Edge(start, relation, end, properties), where


def _schema(value: object, source: str) -> Schema:
    fix = ('write "schema": {"types": {"type": "definition"}, "relations": [{"relation": ..., '
           '"forward": ..., "inverse": ..., "source_types": [...], "target_types": [...]}]}')
    if not isinstance(value, dict) or set(value) - {"types", "relations"}:
        raise LoadError("the `schema` member is not a schema object", f"{source}, schema", fix)
    types = value.get("types", {})
    relations = value.get("relations", [])
    if not isinstance(types, dict) or not all(isinstance(text, str) for text in types.values()):
        raise LoadError("schema `types` is not an object of texts", f"{source}, schema.types", fix)
    if not isinstance(relations, list):
        raise LoadError("schema `relations` is not an array", f"{source}, schema.relations", fix)
    readings = [_reading(item, f"schema.relations[{index}]", source, fix) for index, item in enumerate(relations)]
    return Schema(tuple(types.items()), tuple(readings))


def _reading(item: object, where: str, source: str, fix: str) -> RelationReading:
    texts = ("relation", "forward", "inverse")
    lists = ("source_types", "target_types")
    if (not isinstance(item, dict) or set(item) - set(texts + lists)
            or not all(isinstance(item.get(name), str) for name in texts)
            or not all(isinstance(item.get(name, []), list) and all(isinstance(entry, str) for entry in item.get(name, []))
                       for name in lists)):
        raise LoadError("a relation reading is malformed", f"{source}, {where}", fix)
    return RelationReading(item["relation"], item["forward"], item["inverse"],
                           tuple(item.get("source_types", [])), tuple(item.get("target_types", [])))


def write_node_link(graph: Graph) -> str:
    """Node-link JSON that `parse_node_link` reads back as the same graph with the same schema."""
    nodes = [{"id": node.id, "type": node.type, **_properties_member(node.properties)} for node in graph.nodes]
    edges = [{"source": edge.source, "relation": edge.relation, "target": edge.target,
              **_properties_member(edge.properties)} for edge in graph.edges]
    lines = ["{", ' "directed": true,', ' "multigraph": true,', ' "graph": {},']
    lines += _array_lines("nodes", nodes, ",")
    lines += _array_lines("edges", edges, "," if graph.schema is not None else "")
    if graph.schema is not None:
        lines += [' "schema": {', f'  "types": {_json(dict(graph.schema.type_definitions))},']
        lines += [" " + line for line in _array_lines("relations", [_reading_value(reading)
                                                                       for reading in graph.schema.relations], "")]
        lines.append(" }")
    return "\n".join(lines + ["}", ""])


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _properties_member(properties) -> dict:
    return {"properties": dict(properties)} if properties else {}


def _array_lines(member: str, values: list[dict], comma: str) -> list[str]:
    items = [f"  {_json(value)}" + ("," if index < len(values) - 1 else "") for index, value in enumerate(values)]
    return [f' "{member}": ['] + items + [f" ]{comma}"]


def _reading_value(reading: RelationReading) -> dict:
    return {"relation": reading.relation, "forward": reading.forward, "inverse": reading.inverse,
            "source_types": list(reading.source_types), "target_types": list(reading.target_types)}
