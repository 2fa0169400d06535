"""jsonld: JSON-LD, one object per node or edge in "@graph" (KG-LLM-Bench's own JSON-LD is `kgllm_json_ld3`).

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
from core.formats.rdf_terms import (
    NAMESPACES,
    RDF,
    RDFS,
    XSD,
    Names,
    Vocabulary,
    literal,
    node_label,
    node_local,
    nodes_of,
    value_of,
    vocabulary,
)
from core.graph.derived import derived
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue
from core.graph.units import EdgeUnit, NodeUnit, Unit

NAME = "jsonld"
CONTEXT = {"rdf": RDF, "rdfs": RDFS, "xsd": XSD, **NAMESPACES}
_OPENING = '{"@context": ' + json.dumps(CONTEXT) + ',\n"@graph": ['
_CLOSING = "\n]}"
_NATIVE_INTEGER = 10**21  # JSON-LD reads a JSON integer at or beyond this as an xsd:double

GRAMMAR = """\
JSON-LD. Each object in "@graph" is one node or edge. {"@id": "n:ID", "@type": "t:TYPE", "rdfs:label": \
"name", "p:KEY": value} is a node; {"@id": "n:A", "r:REL": {"@id": "n:B"}} is an edge A --REL--> B; an \
object of "@type" "rdf:Statement" with rdf:subject, rdf:predicate, rdf:object (and p: properties) is one \
more edge. {"@id": "r:X", "rdfs:label": "x y"} at the start says that r:X (or t:X, p:X) stands for \
that exact name. {"@value": ..., "@type": "xsd:double"} is a typed number."""

_FIX = "see the format's grammar: node objects, edge objects and rdf:Statement objects"


def _add_value(record: RecordText, value: PropertyValue) -> None:
    if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)
                                    and abs(value) >= _NATIVE_INTEGER):
        datatype = "xsd:double" if isinstance(value, float) else "xsd:integer"
        record.add('{"@value": "').add(literal(value), "property_value").add(f'", "@type": "{datatype}"}}')
    else:
        add_scalar(record, value, "property_value")


def _add_properties(record: RecordText, names: Vocabulary, properties: Properties) -> None:
    for key, value in properties:
        _add_name(record, ', "p:', names.local("p", key), "property_key", '": ')
        _add_value(record, value)


def _add_name(record: RecordText, before: str, local: str, kind, after: str) -> RecordText:
    """`before + local + after`: a local name needs no JSON escape (core.formats.rdf_names writes name characters)."""
    return record.add(before).add(local, kind).add(after)


def _reference(record: RecordText, prefix: str, local: str, kind) -> RecordText:
    return _add_name(record, '{"@id": "' + prefix + ":", local, kind, '"}')


def _node_record(unit: NodeUnit, lead: str, names: Vocabulary) -> Record:
    node = unit.node
    record = RecordText()
    _add_name(record, lead + '{"@id": "n:', node_local(node.id), "node_id", '"')
    _add_name(record, ', "@type": "t:', names.local("t", node.type), "node_type", '"')
    label, is_property, properties = node_label(node)
    if label is not None:
        add_scalar(record, label, "property_value" if is_property else "node_id", ', "rdfs:label": ')
    _add_properties(record, names, properties)
    return record.add("}").build(unit.key)


def _edge_record(unit: EdgeUnit, lead: str, plain: bool, names: Vocabulary) -> Record:
    edge = unit.edge
    record = RecordText().add(lead)
    relation = names.local("r", edge.relation)
    if plain:
        _add_name(record, '{"@id": "n:', node_local(edge.source), "node_id", '"')
        _add_name(record, ', "r:', relation, "relation", '": ')
        _reference(record, "n", node_local(edge.target), "node_id")
        return record.add("}").build(unit.key)
    record.add('{"@type": "rdf:Statement", "rdf:subject": ')
    _reference(record, "n", node_local(edge.source), "node_id").add(', "rdf:predicate": ')
    _reference(record, "r", relation, "relation").add(', "rdf:object": ')
    _reference(record, "n", node_local(edge.target), "node_id")
    _add_properties(record, names, edge.properties)
    return record.add("}").build(unit.key)


def preamble(graph: Graph) -> str:
    """The context, then one object per declared name of the graph (core.formats.rdf_names), built once."""
    return derived(graph, "jsonld preamble", lambda: _OPENING + ",".join(
        "\n" + json.dumps({"@id": f"{prefix}:{local}", "rdfs:label": name}, ensure_ascii=False)
        for prefix, local, name in vocabulary(graph).declared))


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a record depends on its unit, its lead and whether it is a plain triple
    names = vocabulary(graph)
    declared = bool(names.declared)
    records = []
    written: set[tuple[str, str, str]] = set()
    for index, unit in enumerate(units):
        lead = ",\n" if index or declared else "\n"
        plain = False
        if not unit.is_node:
            triple = (unit.edge.source, unit.edge.relation, unit.edge.target)
            plain = not unit.edge.properties and triple not in written
            if plain:
                written.add(triple)
        key = (unit.key, lead, plain)
        record = memo.get(key)
        if record is None:
            record = memo[key] = (_node_record(unit, lead, names) if unit.is_node
                                  else _edge_record(unit, lead, plain, names))
        records.append(record)
    return Rendering(NAME, preamble(graph), tuple(records), (_CLOSING,) * (len(records) + 1))


# ---------------------------------------------------------------------------------------------- decoding

def _compact(value: object, prefix: str, where: str) -> str:
    """The full IRI of a compact IRI `prefix:local` (a string)."""
    if not isinstance(value, str) or not value.startswith(prefix + ":"):
        raise FormatError(f"expected a {prefix}: name, found {value!r:.60}", where, f'write "{prefix}:<name>"')
    return NAMESPACES[prefix] + value[len(prefix) + 1:]


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


def _properties(item: dict, skip: tuple[str, ...], names: Names, where: str) -> dict[str, PropertyValue]:
    properties: dict[str, PropertyValue] = {}
    for key, value in item.items():
        if key not in skip:
            name = names.name(_compact(key, "p", where), "p", where)
            if name in properties:
                raise FormatError(f"two keys stand for {name!r:.40}", where, "give each property one value")
            properties[name] = _value(value, f"{where}.{key}")
    return properties


def _is_declaration(item: object) -> bool:
    return isinstance(item, dict) and sorted(item) == ["@id", "rdfs:label"] and isinstance(item["@id"], str) \
        and not item["@id"].startswith("n:")


def _label(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise FormatError(f"an rdfs:label must be text, found {json.dumps(value)[:40]}", where, 'write "rdfs:label": "text"')
    return value


def _read(item: object, where: str, names: Names, nodes: list[Node], edges: list[Edge]) -> None:
    item = expect_object(item, where)
    if item.get("@type") == "rdf:Statement" and "@id" not in item:
        parts = ("@type", "rdf:subject", "rdf:predicate", "rdf:object")
        for part in parts[1:]:
            if part not in item:
                raise FormatError(f"a statement has no {part}", where, "give rdf:subject, rdf:predicate and rdf:object")
        edges.append(Edge(names.node(_referenced(item["rdf:subject"], "n", where), where),
                          names.name(_referenced(item["rdf:predicate"], "r", where), "r", where),
                          names.node(_referenced(item["rdf:object"], "n", where), where),
                          properties_from(_properties(item, parts, names, where), where)))
    elif "@type" in item:
        node_id = names.node(_compact(item.get("@id"), "n", where), where)
        labels = {node_id: _label(item["rdfs:label"], where)} if "rdfs:label" in item else {}
        nodes.extend(nodes_of({node_id: names.name(_compact(item["@type"], "t", where), "t", where)}, labels,
                              {node_id: _properties(item, ("@id", "@type", "rdfs:label"), names, where)}))
    else:
        relations = [key for key in item if key != "@id"]
        if len(relations) != 1:
            raise FormatError(f"an edge object names {len(relations)} relations", where,
                              'write one edge per object: {"@id": "n:A", "r:REL": {"@id": "n:B"}}')
        edges.append(Edge(names.node(_compact(item.get("@id"), "n", where), where),
                          names.name(_compact(relations[0], "r", where), "r", where),
                          names.node(_referenced(item[relations[0]], "n", where), where)))


def decode(text: str) -> Graph:
    document = expect_object(parse_json(text), "document")
    if document.get("@context") != CONTEXT or sorted(document) != ["@context", "@graph"]:
        raise FormatError('the document is not {"@context": <the lab\'s context>, "@graph": [...]}', "document",
                          "start with the preamble this format writes")
    items = list(enumerate(expect_list(document["@graph"], "@graph")))
    names = Names()
    for index, item in items:
        if _is_declaration(item):
            where = f"@graph[{index}]"
            names.declare_compact(item["@id"], _label(item["rdfs:label"], where), where)
    nodes: list[Node] = []
    edges: list[Edge] = []
    for index, item in items:
        if not _is_declaration(item):
            _read(item, f"@graph[{index}]", names, nodes, edges)
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="JSON-LD",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    example='{"@id": "n:8", "@type": "t:city", "rdfs:label": "Washington, D.C."}',
)
