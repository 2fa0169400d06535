"""turtle: RDF Turtle with fixed prefixes, parsed back with rdflib.

    n:svc-auth a t:service ;
        r:depends_on n:db-identity, n:svc-noise-0000 ;
        r:owned_by n:team-core .

Node ids, types, relations and property keys are local names under the prefixes n:, t:, r: and p:.
A character a prefixed name cannot hold (ASCII other than letters, digits and `_`, a leading `-`,
non-ASCII outside Turtle's PN_CHARS_BASE) is percent-encoded as its UTF-8 bytes, `%` included, so
decoding percent-decodes the local name exactly. Property values are typed literals: a string, an
xsd:integer (`3`), an xsd:double written with its shortest exact digits (`1.5e0`) or a boolean.

RDF graphs are sets, so the same triple written twice is one triple. An edge is a plain triple only
when it has no properties and no earlier edge of the rendering wrote the same plain triple; every
other edge (a parallel copy, an edge with properties) is a standard RDF reification, one blank node
per edge, which is not also asserted as a plain triple:

    [] a rdf:Statement ; rdf:subject n:a ; rdf:predicate r:depends_on ; rdf:object n:b ; p:weight 2 .

Decoding counts one edge per plain triple and one per statement. Statements group by subject (the
subject_groups order); a record ends with the statement open, and the next record or the closing
writes its " .".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import unquote_to_bytes

import rdflib
from rdflib import RDF, XSD, BNode, Literal, URIRef

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering
from core.formats.decoding import decoded_graph, properties_from
from core.formats.subject_groups import subject_groups
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue
from core.graph.units import Unit

NAME = "turtle"
BASE = "http://example.org/"
NAMESPACES = {"n": BASE + "node/", "t": BASE + "type/", "r": BASE + "relation/", "p": BASE + "property/"}
PREAMBLE = "\n".join([f"@prefix rdf: <{RDF}> ."] + [f"@prefix {prefix}: <{iri}> ." for prefix, iri in
                                                     NAMESPACES.items()]) + "\n"
_NEXT_PREDICATE = " ;\n    "
_END = " ."
# Turtle's PN_CHARS_BASE beyond ASCII: these may stand anywhere in a local name.
_NAME_RANGES = ((0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x2FF), (0x370, 0x37D), (0x37F, 0x1FFF), (0x200C, 0x200D),
                (0x2070, 0x218F), (0x2C00, 0x2FEF), (0x3001, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFFD),
                (0x10000, 0xEFFFF))
_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Safe on untrusted text: one character and a fixed-length lookahead.
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")

GRAMMAR = """\
RDF Turtle. n:<id> a t:<type> is a node; n:a r:<relation> n:b is an edge a --relation--> b; \
p:<key> gives a property as a literal. `;` repeats the subject, `,` the subject and predicate. \
In names, %XX are UTF-8 bytes of other characters. An rdf:Statement blank node is one more edge \
(a parallel copy, or one with p: properties), not asserted as a plain triple."""


def _name_char(char: str, first: bool) -> bool:
    if char.isascii():
        return char.isalnum() or char == "_" or (char == "-" and not first)
    code = ord(char)
    return any(low <= code <= high for low, high in _NAME_RANGES)


# ASCII letters, digits and `_`, then also `-`: what _name_char keeps as it is (most names; checked at once)
# Safe: one character, then one class up to the end; no overlap to re-split.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*\Z")


def local_name(value: str) -> str:
    """`svc-api` stays; `a b` -> `a%20b`, `%` -> `%25`, `-x` -> `%2Dx`."""
    if _PLAIN_NAME.match(value):
        return value
    return "".join(char if _name_char(char, index == 0) else "".join(f"%{byte:02X}" for byte in
                                                                     char.encode("utf-8", "surrogatepass"))
                   for index, char in enumerate(value))


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


def _name(record: RecordText, prefix: str, value: str, kind) -> RecordText:
    return record.add(prefix + ":").add(local_name(value), kind)


def _add_properties(record: RecordText, properties: Properties) -> None:
    for key, value in properties:
        _name(record.add(_NEXT_PREDICATE), "p", key, "property_key").add(" ")
        text = literal(value)
        if isinstance(value, str):
            record.add('"').add(text[1:-1], "property_value").add('"')
        else:
            record.add(text, "property_value")


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    records: list[Record] = []
    open_subject: str | None = None  # subject of the statement left open; None when none is
    open_relation: str | None = None  # its last predicate, when that is a relation
    plain: set[tuple[str, str, str]] = set()
    for group in subject_groups(units):
        subject = group.subject
        if group.node is not None:
            node = group.node.node
            record = RecordText().add(_END + "\n" if records else "\n")
            _name(record, "n", subject, "node_id").add(" a ")
            _name(record, "t", node.type, "node_type")
            _add_properties(record, node.properties)
            records.append(record.build(group.node.key))
            open_subject, open_relation = subject, None
        for relation, units_of_relation in group.relations.items():
            for unit in units_of_relation:
                edge = unit.edge
                triple = (edge.source, edge.relation, edge.target)
                record = RecordText()
                if not edge.properties and triple not in plain:
                    plain.add(triple)
                    if open_subject == subject and open_relation == relation:
                        record.add(", ")
                    else:
                        if open_subject == subject:
                            record.add(_NEXT_PREDICATE)
                        else:
                            _name(record.add(_END + "\n" if records else "\n"), "n", subject, "node_id").add(" ")
                        _name(record, "r", relation, "relation").add(" ")
                    _name(record, "n", edge.target, "node_id")
                    open_subject, open_relation = subject, relation
                else:
                    record.add((_END + "\n" if records else "\n") + "[] a rdf:Statement" + _NEXT_PREDICATE
                               + "rdf:subject ")
                    _name(record, "n", edge.source, "node_id").add(_NEXT_PREDICATE + "rdf:predicate ")
                    _name(record, "r", edge.relation, "relation").add(_NEXT_PREDICATE + "rdf:object ")
                    _name(record, "n", edge.target, "node_id")
                    _add_properties(record, edge.properties)
                    open_subject, open_relation = None, None
                records.append(record.build(unit.key))
    closings = ("",) + (_END,) * len(records)  # every record leaves its statement open
    return Rendering(NAME, PREAMBLE, tuple(records), closings)


def _statement_start(rendering: Rendering, kept: int, records_end: int) -> int:
    """Where the statement the last whole record belongs to begins (after the " ." ending the one before).

    A raw cut ends inside that statement or just after it, in the next one; the statements before
    are complete and name nothing the tail needs (blank nodes are written `[]`, fresh each time).
    """
    start = records_end
    for index in range(kept - 1, -1, -1):
        text = rendering.records[index].text
        start -= len(text)
        if text.startswith(_END + "\n"):
            return start + len(_END)
        if text.startswith("\n"):
            return start
    return start


# ---------------------------------------------------------------------------------------------- decoding

def _local(term: object, prefix: str, where: str) -> str:
    if not isinstance(term, URIRef):
        raise FormatError(f"expected a {prefix}: name, found {_shown(term)}", where,
                          f"write {prefix}:<name> (prefix {prefix}: is <{NAMESPACES[prefix]}>)")
    return local_of(str(term), prefix, where)


def local_of(value: str, prefix: str, where: str) -> str:
    """The name an IRI under `prefix` stands for (percent-decoded); a FormatError for any other IRI.
    Shared by every RDF format (core.formats.rdf_terms)."""
    namespace = NAMESPACES[prefix]
    if not value.startswith(namespace):
        raise FormatError(f"expected a {prefix}: name, found <{value[:80]}>", where,
                          f"write {prefix}:<name> (prefix {prefix}: is <{namespace}>)")
    name = value[len(namespace):]
    if _BAD_PERCENT.search(name):
        raise FormatError(f"a % in <{value[:80]}> is not followed by two hex digits", where,
                          "write %25 for a percent sign")
    try:
        return unquote_to_bytes(name).decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError(f"the %-escapes in <{value[:80]}> are not UTF-8", where,
                          "percent-encode the UTF-8 bytes of each character") from None


def _value(term: object, where: str) -> PropertyValue:
    if not isinstance(term, Literal) or term.language:
        raise FormatError(f"a property value must be a plain literal, found {_shown(term)}", where,
                          'write "text", an integer, a double like 1.5e0, or true/false')
    lexical, datatype = str(term), term.datatype
    if datatype in (None, XSD.string):
        return lexical
    value = term.toPython()
    if datatype == XSD.integer and type(value) is int:
        return value
    if datatype == XSD.double and type(value) is float:
        return value
    if datatype == XSD.boolean and lexical in ("true", "false", "1", "0"):
        return lexical in ("true", "1")
    raise FormatError(f"unsupported or ill-typed literal {_shown(term)}", where,
                      'write "text", an integer, a double like 1.5e0, or true/false')


def _shown(term: object) -> str:
    return repr(str(term))[:80]


# rdflib's BadSyntax keeps its reason in a private field; its public text reads
# 'at line N of <>:\nBad syntax (REASON) at ^ in: ...', from which the reason is taken.
# The message quotes the user's text, so the reason is cut out with two `find`s: a lazy `(.+?)` regex
# search rescanned the rest of the message from every "Bad syntax (" it held.
_BAD_SYNTAX, _AT = "Bad syntax (", ") at ^"


def syntax_reason(message: str) -> str:
    """The reason in an rdflib parse error's message (BadSyntax's own words), else its first line."""
    start = message.find(_BAD_SYNTAX)
    end = message.find(_AT, start + len(_BAD_SYNTAX) + 1) if start >= 0 else -1
    return message[start + len(_BAD_SYNTAX):end] if end >= 0 else message.split("\n")[0]


def _parse(text: str) -> rdflib.Graph:
    graph = rdflib.Graph()
    try:
        graph.parse(data=text, format="turtle")
    except Exception as error:  # rdflib raises many kinds; every one means the text is not our Turtle
        line = getattr(error, "lines", None)
        line = line + 1 if isinstance(line, int) else None
        why = syntax_reason(str(error))
        raise FormatError(f"invalid Turtle: {why[:120]}", f"line {line}" if line else "document",
                          "check the prefixes, names, quotes and the ' .' that ends each statement",
                          line=line) from None
    return graph


class _Statement:
    """A reified edge: its rdf:subject, rdf:predicate, rdf:object and properties."""

    def __init__(self) -> None:
        self.parts: dict[rdflib.term.Node, list] = {}  # predicate -> objects; rdflib types predicates as Node

    def edge(self, where: str) -> Edge:
        properties: dict[str, PropertyValue] = {}
        for predicate, objects in self.parts.items():
            if predicate == RDF.type:
                if objects != [RDF.Statement]:
                    raise FormatError("a statement's type is not rdf:Statement", where, "write a rdf:Statement")
                continue
            if len(objects) != 1:
                raise FormatError(f"a statement has {len(objects)} values for {_shown(predicate)}", where,
                                  "give each statement one subject, predicate, object and value per key")
            if predicate not in (RDF.subject, RDF.predicate, RDF.object):
                properties[_local(predicate, "p", where)] = _value(objects[0], where)
        for part in (RDF.subject, RDF.predicate, RDF.object):
            if part not in self.parts:
                raise FormatError(f"a statement has no {_shown(part)}", where,
                                  "give rdf:subject, rdf:predicate and rdf:object")
        source, relation, target = (_local(self.parts[part][0], prefix, where) for part, prefix in
                                    ((RDF.subject, "n"), (RDF.predicate, "r"), (RDF.object, "n")))
        return Edge(source, relation, target, properties_from(properties, where))


def decode(text: str) -> Graph:
    rdf = _parse(text)
    types: dict[str, str] = {}
    node_properties: dict[str, dict[str, PropertyValue]] = {}
    edges: list[Edge] = []
    statements: dict[BNode, _Statement] = {}
    for subject, predicate, obj in sorted(rdf, key=lambda triple: tuple(map(str, triple))):
        where = f"triple {_shown(subject)} {_shown(predicate)} {_shown(obj)}"
        if isinstance(subject, BNode):
            statements.setdefault(subject, _Statement()).parts.setdefault(predicate, []).append(obj)
            continue
        node_id = _local(subject, "n", where)
        if predicate == RDF.type:
            if node_id in types:
                raise FormatError(f"node {node_id!r:.60} has two types", where, "give each node one type")
            types[node_id] = _local(obj, "t", where)
        elif isinstance(predicate, URIRef) and str(predicate).startswith(NAMESPACES["p"]):
            key = _local(predicate, "p", where)
            known = node_properties.setdefault(node_id, {})
            if key in known:
                raise FormatError(f"node {node_id!r:.60} has two values for {key!r:.40}", where,
                                  "give each property one value")
            known[key] = _value(obj, where)
        else:
            edges.append(Edge(node_id, _local(predicate, "r", where), _local(obj, "n", where)))
    edges += [statement.edge(f"statement {_shown(node)}") for node, statement in statements.items()]
    untyped = sorted(node_properties.keys() - types.keys())
    if untyped:
        raise FormatError(f"node {untyped[0]!r:.60} has properties but no type", f"node {untyped[0]!r:.60}",
                          "write n:<id> a t:<type> with its properties")
    nodes = [Node(node_id, node_type, properties_from(node_properties.get(node_id, {}), f"node {node_id!r:.60}"))
             for node_id, node_type in types.items()]
    return decoded_graph(nodes, edges)


FORMAT = Format(
    name=NAME,
    title="RDF Turtle",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=_statement_start,
    example="n:svc-api a t:service ; r:depends_on n:svc-auth ; r:owned_by n:team-core .",
)
