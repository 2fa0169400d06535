"""RDF terms shared by the RDF formats (turtle, jsonld, ntriples): the lab's literals, labels, and triples read back into a graph.

Every RDF format maps a graph to the same triples: a node is an IRI under n: (core.formats.rdf_names)
with an rdf:type under t: and, where it says more than the IRI, an rdfs:label literal, a property a
literal under p:, an edge a plain triple r:<relation> unless it has properties or repeats a plain
triple already written, in which case it is a reified rdf:Statement (a blank node) that is not also
asserted. The header declares the types,
relations and keys whose local name is not their own name (`r:largest_city rdfs:label "largest city"`).

A node's rdfs:label is its `label` property when that is text other than its id; else, only when the id
is not written as it is in the IRI (`n:Washington_DC:5ra6ab`), the id itself. An id that is its own
local name (`n:svc-auth`) gets no rdfs:label: it would only repeat the IRI. A `label` property that is
not text other than the id (a number, or the id itself) is written as p:label. Decoding reverses it:
an rdfs:label other than the id, with no p:label, is the `label` property; no rdfs:label, or the id, is none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.errors import FormatError
from core.formats.decoding import decoded_graph, properties_from
from core.formats.rdf_names import (
    NAMESPACES,
    RDFS,
    RDFS_LABEL,
    VOCABULARY_PREFIXES,
    Vocabulary,
    declaration,
    name_of,
    node_id_of,
    node_local,
    vocabulary,
)
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE, RDF_STATEMENT = RDF + "type", RDF + "Statement"
RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT = RDF + "subject", RDF + "predicate", RDF + "object"
LABEL_KEY = "label"

__all__ = ["NAMESPACES", "RDFS", "RDFS_LABEL", "Vocabulary", "node_local", "vocabulary"]

_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def string_literal(value: str) -> str:
    parts = []
    for char in value:
        if char in _STRING_ESCAPES:
            parts.append(_STRING_ESCAPES[char])
        elif ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F or char in "\u2028\u2029":
            parts.append(f"\\u{ord(char):04X}")
        else:
            parts.append(char)
    return '"' + "".join(parts) + '"'


def literal(value: PropertyValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)  # the shortest digits that read back as this float
        return text if "e" in text else text + "e0"
    return string_literal(value)


def node_label(node: Node) -> tuple[str | None, bool, Properties]:
    """(the node's rdfs:label or None for none, whether it is the `label` property, the properties written under p:)."""
    for index, (key, value) in enumerate(node.properties):
        if key == LABEL_KEY:
            if isinstance(value, str) and value != node.id:
                return value, True, node.properties[:index] + node.properties[index + 1:]
            break
    # The id as a literal only where the IRI does not show it as it is (a coded name).
    return (None if node_local(node.id) == node.id else node.id), False, node.properties


def iri(prefix: str, local: str) -> str:
    """The full IRI of a local name: `iri("n", "8")` -> `http://example.org/node/8`."""
    return NAMESPACES[prefix] + local


def datatype_of(value: PropertyValue) -> str | None:
    """The XSD datatype a property value is written with (None: a plain string literal)."""
    if isinstance(value, bool):
        return XSD + "boolean"
    if isinstance(value, int):
        return XSD + "integer"
    if isinstance(value, float):
        return XSD + "double"
    return None


def lexical_of(value: PropertyValue) -> str:
    """The lexical form of a non-string value (`literal` writes it), or the string itself."""
    return value if isinstance(value, str) else literal(value)


_VALUE_FIX = 'write a string, an xsd:integer, an xsd:double like "1.5e0" or an xsd:boolean'


def value_of(lexical: str, datatype: str | None, where: str) -> PropertyValue:
    """A property value from a literal's lexical form and datatype, exactly as written."""
    if datatype in (None, XSD + "string"):
        return lexical
    if datatype == XSD + "integer" and re.fullmatch(r"[+-]?[0-9]+", lexical):
        try:
            return int(lexical)
        except ValueError:
            raise FormatError(f"the integer {lexical[:20]}... has too many digits", where,
                              "write integers with at most 4300 digits, or as text") from None
    if datatype == XSD + "double" and re.fullmatch(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", lexical):
        number = float(lexical)
        if number not in (float("inf"), float("-inf")):
            return number
    if datatype == XSD + "boolean" and lexical in ("true", "false", "1", "0"):
        return lexical in ("true", "1")
    raise FormatError(f"unsupported or ill-typed literal {lexical[:40]!r} ({datatype})", where, _VALUE_FIX)


def local_in(value: str, prefix: str, where: str) -> str:
    """The local name of an IRI under `prefix`; a FormatError for any other IRI."""
    namespace = NAMESPACES[prefix]
    if not value.startswith(namespace):
        raise FormatError(f"expected a {prefix}: name, found <{value[:80]}>", where,
                          f"write {prefix}:<name> (prefix {prefix}: is <{namespace}>)")
    return value[len(namespace):]


def prefix_of(value: str) -> str | None:
    """Which of the lab's namespaces an IRI is under (None: none of them)."""
    return next((prefix for prefix, namespace in NAMESPACES.items() if value.startswith(namespace)), None)


@dataclass(frozen=True)
class Term:
    """An RDF term as read: an IRI, a blank node label, or a literal (lexical form and datatype)."""

    kind: str  # "iri", "blank" or "literal"
    value: str
    datatype: str | None = None
    language: str | None = None


class Names:
    """The names a document's IRIs stand for: node ids from their local names, the rest from the header."""

    def __init__(self) -> None:
        self.declared: dict[str, dict[str, str]] = {prefix: {} for prefix in VOCABULARY_PREFIXES}

    def declare(self, subject: str, name: str, where: str) -> None:
        """`subject rdfs:label name` for a type, relation or key IRI: the local name stands for `name`."""
        prefix = prefix_of(subject)
        if prefix not in VOCABULARY_PREFIXES:
            raise FormatError(f"expected a t:, r: or p: name, found <{subject[:80]}>", where,
                              "declare types (t:), relations (r:) and keys (p:) only")
        declaration(self.declared, prefix, local_in(subject, prefix, where), name, where)

    def declare_compact(self, subject: str, name: str, where: str) -> None:
        """The same for a compact IRI (`r:largest_city`)."""
        prefix, _, local = subject.partition(":")
        if prefix not in VOCABULARY_PREFIXES:
            raise FormatError(f"expected a t:, r: or p: name, found {subject[:80]!r}", where,
                              "declare types (t:), relations (r:) and keys (p:) only")
        self.declare(NAMESPACES[prefix] + local, name, where)

    def node(self, value: str, where: str) -> str:
        return node_id_of(local_in(value, "n", where), where)

    def name(self, value: str, prefix: str, where: str) -> str:
        return name_of(local_in(value, prefix, where), prefix, self.declared[prefix], where)


def _is_declaration(subject: Term, predicate: Term) -> bool:
    return subject.kind == "iri" and predicate.value == RDFS_LABEL and not subject.value.startswith(NAMESPACES["n"])


def graph_from_triples(triples: Iterable[tuple[Term, Term, Term]]) -> Graph:
    """The graph that a set of the lab's RDF triples means (the set: a repeated triple counts once)."""
    unique = list(dict.fromkeys(triples))
    names = Names()
    for subject, predicate, obj in unique:
        if _is_declaration(subject, predicate):
            where = _where(subject, predicate, obj)
            names.declare(subject.value, _text(obj, where), where)
    types: dict[str, str] = {}
    labels: dict[str, str] = {}
    node_properties: dict[str, dict[str, PropertyValue]] = {}
    edges: list[Edge] = []
    statements: dict[str, dict[str, list[Term]]] = {}
    for subject, predicate, obj in unique:
        where = _where(subject, predicate, obj)
        if predicate.kind != "iri":
            raise FormatError("a predicate is not an IRI", where, "write predicates as IRIs")
        if subject.kind == "blank":
            statements.setdefault(subject.value, {}).setdefault(predicate.value, []).append(obj)
            continue
        if subject.kind != "iri":
            raise FormatError("a subject is a literal", where, "write subjects as n: IRIs or blank nodes")
        if _is_declaration(subject, predicate):
            continue
        node_id = names.node(subject.value, where)
        if predicate.value == RDF_TYPE:
            if node_id in types:
                raise FormatError(f"node {node_id!r:.60} has two types", where, "give each node one type")
            types[node_id] = names.name(_iri(obj, where), "t", where)
        elif predicate.value == RDFS_LABEL:
            if node_id in labels:
                raise FormatError(f"node {node_id!r:.60} has two labels", where, "give each node one rdfs:label")
            labels[node_id] = _text(obj, where)
        elif predicate.value.startswith(NAMESPACES["p"]):
            key = names.name(predicate.value, "p", where)
            known = node_properties.setdefault(node_id, {})
            if key in known:
                raise FormatError(f"node {node_id!r:.60} has two values for {key!r:.40}", where,
                                  "give each property one value")
            known[key] = _value(obj, where)
        else:
            edges.append(Edge(node_id, names.name(predicate.value, "r", where), names.node(_iri(obj, where), where)))
    edges += [_statement_edge(parts, names, f"blank node {label!r:.40}") for label, parts in statements.items()]
    return decoded_graph(nodes_of(types, labels, node_properties), edges)


def nodes_of(types: dict[str, str], labels: dict[str, str],
             node_properties: dict[str, dict[str, PropertyValue]]) -> list[Node]:
    """The nodes read: each typed id with its properties, its rdfs:label read back as `node_label` wrote it."""
    untyped = sorted((node_properties.keys() | labels.keys()) - types.keys())
    if untyped:
        raise FormatError(f"node {untyped[0]!r:.60} has properties but no type", f"node {untyped[0]!r:.60}",
                          "give the node an rdf:type with its properties")
    nodes = []
    for node_id, node_type in types.items():
        where = f"node {node_id!r:.60}"
        properties = node_properties.get(node_id, {})
        label = labels.get(node_id, node_id)
        if label != node_id:
            if LABEL_KEY in properties:
                raise FormatError(f"node {node_id!r:.60} has an rdfs:label and a p:{LABEL_KEY}", where,
                                  f"write its label as rdfs:label, or its id as rdfs:label beside p:{LABEL_KEY}")
            properties = {**properties, LABEL_KEY: label}
        nodes.append(Node(node_id, node_type, properties_from(properties, where)))
    return nodes


def _where(subject: Term, predicate: Term, obj: Term) -> str:
    return f"triple {subject.value!r:.60} {predicate.value!r:.60} {obj.value!r:.60}"


def _iri(term: Term, where: str) -> str:
    if term.kind != "iri":
        raise FormatError(f"expected an IRI, found {term.kind} {term.value!r:.40}", where, "write the object as an IRI")
    return term.value


def _text(term: Term, where: str) -> str:
    if term.kind != "literal" or term.language is not None or term.datatype not in (None, XSD + "string"):
        raise FormatError(f"an rdfs:label must be a plain string literal, found {term.kind} {term.value!r:.40}",
                          where, 'write rdfs:label "text"')
    return term.value


def _value(term: Term, where: str) -> PropertyValue:
    if term.kind != "literal" or term.language is not None:
        raise FormatError(f"a property value must be a plain literal, found {term.kind} {term.value!r:.40}", where,
                          _VALUE_FIX)
    return value_of(term.value, term.datatype, where)


def _statement_edge(parts: dict[str, list[Term]], names: Names, where: str) -> Edge:
    properties: dict[str, PropertyValue] = {}
    for predicate, objects in parts.items():
        if predicate == RDF_TYPE:
            if [term.value for term in objects] != [RDF_STATEMENT]:
                raise FormatError("a statement's type is not rdf:Statement", where, "write a rdf:Statement")
            continue
        if len(objects) != 1:
            raise FormatError(f"a statement has {len(objects)} values for {predicate!r:.60}", where,
                              "give each statement one subject, predicate, object and value per key")
        if predicate not in (RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT):
            properties[names.name(predicate, "p", where)] = _value(objects[0], where)
    for part in (RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT):
        if part not in parts:
            raise FormatError(f"a statement has no {part}", where, "give rdf:subject, rdf:predicate and rdf:object")
    return Edge(names.node(_iri(parts[RDF_SUBJECT][0], where), where),
                names.name(_iri(parts[RDF_PREDICATE][0], where), "r", where),
                names.node(_iri(parts[RDF_OBJECT][0], where), where), properties_from(properties, where))
