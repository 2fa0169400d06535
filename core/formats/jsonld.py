"""jsonld: JSON-LD, one object per node or edge in "@graph" (KG-LLM-Bench's JSON-LD serialization).

    {"@context": {"n": "http://example.org/node/", ...},
    "@graph": [
    {"@id": "n:svc-api", "@type": "t:service"},
    {"@id": "n:svc-api", "r:depends_on": {"@id": "n:svc-auth"}}
    ]}

The RDF it means is `turtle`'s (core.formats.rdf_terms): node objects carry "@type" and p:
properties; an edge object names its source and one relation; an edge with properties, or one
repeating a plain triple already written, is an rdf:Statement object without "@id" (a blank node).
Strings, booleans and integers up to 10^21 are JSON values (JSON-LD reads them as xsd:string,
xsd:boolean, xsd:integer); a double, or a larger integer, is a value object with its lexical form
and "@type". The decoder reads these three object shapes from the JSON itself (no JSON-LD processor);
the tests check that rdflib's JSON-LD parser reads the same triples.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, record_memo
from core.formats.decoding import decoded_graph, expect_list, expect_object, parse_json, properties_from
from core.formats.json_writing import add_scalar
from core.formats.rdf_terms import NAMESPACES, RDF, XSD, literal, local_name, local_of, value_of
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue
from core.graph.units import EdgeUnit, NodeUnit, Unit

NAME = "jsonld"
CONTEXT = {"rdf": RDF, "xsd": XSD, **NAMESPACES}
PREAMBLE = '{"@context": ' + json.dumps(CONTEXT) + ',\n"@graph": ['
_CLOSING = "\n]}"
_NATIVE_INTEGER = 10**21  # JSON-LD reads a JSON integer at or beyond this as an xsd:double

GRAMMAR = """\
JSON-LD. Each object in "@graph" is one node or edge. {"@id": "n:ID", "@type": "t:TYPE", "p:KEY": \
value} is a node; {"@id": "n:A", "r:REL": {"@id": "n:B"}} is an edge A --REL--> B; an object of \
"@type" "rdf:Statement" with rdf:subject, rdf:predicate, rdf:object (and p: properties) is one more \
edge. In names, %XX are UTF-8 bytes. {"@value": ..., "@type": "xsd:double"} is a typed number."""

_FIX = "see the format's grammar: node objects, edge objects and rdf:Statement objects"


def _name(prefix: str, value: str) -> str:
    return f"{prefix}:{local_name(value)}"


def _add_value(record: RecordText, value: PropertyValue) -> None:
    if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)
                                    and abs(value) >= _NATIVE_INTEGER):
        datatype = "xsd:double" if isinstance(value, float) else "xsd:integer"
        record.add('{"@value": "').add(literal(value), "property_value").add(f'", "@type": "{datatype}"}}')
    else:
        add_scalar(record, value, "property_value")


def _add_properties(record: RecordText, properties: Properties) -> None:
    for key, value in properties:
        record.add(', "p:').add(local_name(key), "property_key").add('": ')
        _add_value(record, value)


def _reference(record: RecordText, prefix: str, value: str, kind) -> RecordText:
    return record.add('{"@id": "' + prefix + ":").add(local_name(value), kind).add('"}')


def _node_record(unit: NodeUnit, lead: str) -> Record:
    node = unit.node
    record = RecordText().add(lead + '{"@id": "n:').add(local_name(node.id), "node_id")
    record.add('", "@type": "t:').add(local_name(node.type), "node_type").add('"')
    _add_properties(record, node.properties)
    return record.add("}").build(unit.key)


def _edge_record(unit: EdgeUnit, lead: str, plain: bool) -> Record:
    edge = unit.edge
    record = RecordText().add(lead)
    if plain:
        record.add('{"@id": "n:').add(local_name(edge.source), "node_id").add('", "r:')
        _reference(record.add(local_name(edge.relation), "relation").add('": '), "n", edge.target, "node_id")
        return record.add("}").build(unit.key)
    record.add('{"@type": "rdf:Statement", "rdf:subject": ')
    _reference(record, "n", edge.source, "node_id").add(', "rdf:predicate": ')
    _reference(record, "r", edge.relation, "relation").add(', "rdf:object": ')
    _reference(record, "n", edge.target, "node_id")
    _add_properties(record, edge.properties)
    return record.add("}").build(unit.key)


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a record depends on its unit, its lead and whether it is a plain triple
    records = []
    written: set[tuple[str, str, str]] = set()
    for index, unit in enumerate(units):
        lead = ",\n" if index else "\n"
        plain = False
        if not unit.is_node:
            triple = (unit.edge.source, unit.edge.relation, unit.edge.target)
            plain = not unit.edge.properties and triple not in written
            if plain:
                written.add(triple)
        key = (unit.key, lead, plain)
        record = memo.get(key)
        if record is None:
            record = memo[key] = _node_record(unit, lead) if unit.is_node else _edge_record(unit, lead, plain)
        records.append(record)
    return Rendering(NAME, PREAMBLE, tuple(records), (_CLOSING,) * (len(records) + 1))


# ---------------------------------------------------------------------------------------------- decoding

def _compact(value: object, prefix: str, where: str) -> str:
    """The name behind a compact IRI `prefix:local` (a string)."""
    if not isinstance(value, str) or not value.startswith(prefix + ":"):
        raise FormatError(f"expected a {prefix}: name, found {value!r:.60}", where, f'write "{prefix}:<name>"')
    return local_of(NAMESPACES[prefix] + value[len(prefix) + 1:], prefix, where)


def _referenced(value: object, prefix: str, where: str) -> str:
    item = expect_object(value, where)
    if list(item) != ["@id"]:
        raise FormatError(f"expected {{\"@id\": \"{prefix}:...\"}}, found keys {list(item)!r:.60}", where, _FIX)
    return _compact(item["@id"], prefix, where)


def _value(value: object, where: str) -> PropertyValue:
    if isinstance(value, (str, bool, int, float)):
        return value
    item = expect_object(value, where)
    if sorted(item) != ["@type", "@value"] or not isinstance(item["@value"], str) \
            or item["@type"] not in ("xsd:double", "xsd:integer"):
        raise FormatError(f"unsupported property value {json.dumps(item)[:60]}", where,
                          'write a JSON string, number, true/false or {"@value": "1.5e0", "@type": "xsd:double"}')
    return value_of(item["@value"], XSD + item["@type"][4:], where)


def _properties(item: dict, skip: tuple[str, ...], where: str) -> Properties:
    properties = {_compact(key, "p", where): _value(value, f"{where}.{key}")
                  for key, value in item.items() if key not in skip}
    return properties_from(properties, where)


def _read(item: object, where: str, nodes: list[Node], edges: list[Edge]) -> None:
    item = expect_object(item, where)
    if item.get("@type") == "rdf:Statement" and "@id" not in item:
        parts = ("@type", "rdf:subject", "rdf:predicate", "rdf:object")
        for part in parts[1:]:
            if part not in item:
                raise FormatError(f"a statement has no {part}", where, "give rdf:subject, rdf:predicate and rdf:object")
        edges.append(Edge(_referenced(item["rdf:subject"], "n", where), _referenced(item["rdf:predicate"], "r", where),
                          _referenced(item["rdf:object"], "n", where), _properties(item, parts, where)))
    elif "@type" in item:
        nodes.append(Node(_compact(item.get("@id"), "n", where), _compact(item["@type"], "t", where),
                          _properties(item, ("@id", "@type"), where)))
    else:
        relations = [key for key in item if key != "@id"]
        if len(relations) != 1:
            raise FormatError(f"an edge object names {len(relations)} relations", where,
                              'write one edge per object: {"@id": "n:A", "r:REL": {"@id": "n:B"}}')
        edges.append(Edge(_compact(item.get("@id"), "n", where), _compact(relations[0], "r", where),
                          _referenced(item[relations[0]], "n", where)))


def decode(text: str) -> Graph:
    document = expect_object(parse_json(text), "document")
    if document.get("@context") != CONTEXT or sorted(document) != ["@context", "@graph"]:
        raise FormatError('the document is not {"@context": <the lab\'s context>, "@graph": [...]}', "document",
                          "start with the preamble this format writes")
    nodes: list[Node] = []
    edges: list[Edge] = []
    for index, item in enumerate(expect_list(document["@graph"], "@graph")):
        _read(item, f"@graph[{index}]", nodes, edges)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="JSON-LD",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='{"@id": "n:svc-api", "r:depends_on": {"@id": "n:svc-auth"}}',
)
