"""RDF terms shared by the RDF formats (jsonld, ntriples): the lab's IRIs, literals, and triples read back into a graph.

Every RDF format maps a graph to the same triples as `turtle`: a node is an IRI under n: with an
rdf:type under t:, a property a literal under p:, an edge a plain triple r:<relation> unless it has
properties or repeats a plain triple already written, in which case it is a reified rdf:Statement
(a blank node) that is not also asserted. Local names are percent-encoded (`turtle.local_name`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.errors import FormatError
from core.formats.decoding import decoded_graph, properties_from
from core.formats.turtle import NAMESPACES, literal, local_name, local_of
from core.graph.model import Edge, Graph, Node, PropertyValue

# IRIs are names in the text, never fetched: nothing here (or in rdflib's parse of our own text) opens a URL.
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE, RDF_STATEMENT = RDF + "type", RDF + "Statement"
RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT = RDF + "subject", RDF + "predicate", RDF + "object"

__all__ = ["NAMESPACES", "literal", "local_name", "local_of"]


def iri(prefix: str, value: str) -> str:
    """The full IRI of a name: `iri("n", "a b")` -> `http://example.org/node/a%20b`."""
    return NAMESPACES[prefix] + local_name(value)


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


@dataclass(frozen=True)
class Term:
    """An RDF term as read: an IRI, a blank node label, or a literal (lexical form and datatype)."""

    kind: str  # "iri", "blank" or "literal"
    value: str
    datatype: str | None = None
    language: str | None = None


def graph_from_triples(triples: Iterable[tuple[Term, Term, Term]]) -> Graph:
    """The graph that a set of the lab's RDF triples means (the set: a repeated triple counts once)."""
    types: dict[str, str] = {}
    node_properties: dict[str, dict[str, PropertyValue]] = {}
    edges: list[Edge] = []
    statements: dict[str, dict[str, list[Term]]] = {}
    for subject, predicate, obj in dict.fromkeys(triples):
        where = f"triple {subject.value!r:.60} {predicate.value!r:.60} {obj.value!r:.60}"
        if predicate.kind != "iri":
            raise FormatError("a predicate is not an IRI", where, "write predicates as IRIs")
        if subject.kind == "blank":
            statements.setdefault(subject.value, {}).setdefault(predicate.value, []).append(obj)
            continue
        if subject.kind != "iri":
            raise FormatError("a subject is a literal", where, "write subjects as n: IRIs or blank nodes")
        node_id = local_of(subject.value, "n", where)
        if predicate.value == RDF_TYPE:
            if node_id in types:
                raise FormatError(f"node {node_id!r:.60} has two types", where, "give each node one type")
            types[node_id] = local_of(_iri(obj, where), "t", where)
        elif predicate.value.startswith(NAMESPACES["p"]):
            key = local_of(predicate.value, "p", where)
            known = node_properties.setdefault(node_id, {})
            if key in known:
                raise FormatError(f"node {node_id!r:.60} has two values for {key!r:.40}", where,
                                  "give each property one value")
            known[key] = _value(obj, where)
        else:
            edges.append(Edge(node_id, local_of(predicate.value, "r", where), local_of(_iri(obj, where), "n", where)))
    edges += [_statement_edge(parts, f"blank node {label!r:.40}") for label, parts in statements.items()]
    untyped = sorted(node_properties.keys() - types.keys())
    if untyped:
        raise FormatError(f"node {untyped[0]!r:.60} has properties but no type", f"node {untyped[0]!r:.60}",
                          "give the node an rdf:type with its properties")
    nodes = [Node(node_id, node_type, properties_from(node_properties.get(node_id, {}), f"node {node_id!r:.60}"))
             for node_id, node_type in types.items()]
    return decoded_graph(nodes, edges)


def _iri(term: Term, where: str) -> str:
    if term.kind != "iri":
        raise FormatError(f"expected an IRI, found {term.kind} {term.value!r:.40}", where, "write the object as an IRI")
    return term.value


def _value(term: Term, where: str) -> PropertyValue:
    if term.kind != "literal" or term.language is not None:
        raise FormatError(f"a property value must be a plain literal, found {term.kind} {term.value!r:.40}", where,
                          _VALUE_FIX)
    return value_of(term.value, term.datatype, where)


def _statement_edge(parts: dict[str, list[Term]], where: str) -> Edge:
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
            properties[local_of(predicate, "p", where)] = _value(objects[0], where)
    for part in (RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT):
        if part not in parts:
            raise FormatError(f"a statement has no {part}", where, "give rdf:subject, rdf:predicate and rdf:object")
    source, relation, target = (local_of(_iri(parts[part][0], where), prefix, where) for part, prefix in
                                ((RDF_SUBJECT, "n"), (RDF_PREDICATE, "r"), (RDF_OBJECT, "n")))
    return Edge(source, relation, target, properties_from(properties, where))
