"""ntriples: RDF N-Triples, one triple per line with full IRIs.

    <http://example.org/node/svc-api> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/type/service> .
    <http://example.org/node/svc-api> <http://example.org/relation/depends_on> <http://example.org/node/svc-auth> .

The triples are `turtle`'s (core.formats.rdf_terms): a node record is its rdf:type triple, its
rdfs:label triple where it has one, and one triple per property; an edge record is a plain triple, or,
for an edge with properties or a repeated plain triple, a reified statement on a blank node `_:s<k>` (the k-th statement of the
rendering, so that every prefix numbers its statements the same way). The preamble declares the
types, relations and keys that are no local names (core.formats.rdf_names). The decoder reads the lines
itself (no RDF library); the tests check that rdflib reads the same triples.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering, after_whole_records, record_memo, without_closing
from core.formats.grouping import split_lines
from core.formats.rdf_names import RDFS_LABEL, Vocabulary, vocabulary
from core.formats.rdf_terms import (
    RDF_OBJECT,
    RDF_PREDICATE,
    RDF_STATEMENT,
    RDF_SUBJECT,
    RDF_TYPE,
    Term,
    datatype_of,
    graph_from_triples,
    iri,
    lexical_of,
    node_label,
    node_local,
    string_literal,
)
from core.graph.derived import derived
from core.graph.model import Graph, Properties
from core.graph.units import EdgeUnit, NodeUnit, Unit

NAME = "ntriples"

GRAMMAR = """\
RDF N-Triples: one triple `<subject> <predicate> <object> .` per line. <.../node/ID> rdf:type \
<.../type/TYPE> is a node, its rdfs:label its name; <.../node/A> <.../relation/REL> <.../node/B> is an \
edge A --REL--> B; <.../property/KEY> gives a property as a literal. A type, relation or property \
IRI with an rdfs:label in the first lines stands for that exact name. A blank node _:sN \
of type rdf:Statement is one more edge (a parallel copy, or one with properties), not also a plain triple."""

_FIX = "write each line as <subject> <predicate> <object> ."


def _triple(record: RecordText, subject: str, predicate: str, obj: str, kinds=(None, None, None)) -> None:
    for index, (text, kind) in enumerate(zip((subject, predicate, obj), kinds)):
        record.add(" " if index else "").add(text, kind)
    record.add(" .")


def _literal(value) -> str:
    datatype = datatype_of(value)
    text = string_literal(lexical_of(value))
    return text if datatype is None else f"{text}^^<{datatype}>"


def _properties(record: RecordText, subject: str, names: Vocabulary, properties: Properties) -> None:
    for key, value in properties:
        record.add("\n")
        _triple(record, subject, f"<{iri('p', names.local('p', key))}>", _literal(value),
                (None, "property_key", "property_value"))


def _node_iri(node_id: str) -> str:
    return f"<{iri('n', node_local(node_id))}>"


def _node_record(unit: NodeUnit, lead: str, names: Vocabulary) -> Record:
    node = unit.node
    subject = _node_iri(node.id)
    record = RecordText().add(lead)
    _triple(record, subject, f"<{RDF_TYPE}>", f"<{iri('t', names.local('t', node.type))}>",
            ("node_id", None, "node_type"))
    label, is_property, properties = node_label(node)
    if label is not None:
        _triple(record.add("\n"), subject, f"<{RDFS_LABEL}>", string_literal(label),
                (None, None, "property_value" if is_property else "node_id"))
    _properties(record, subject, names, properties)
    return record.build(unit.key)


def _edge_record(unit: EdgeUnit, lead: str, statement: int | None, names: Vocabulary) -> Record:
    edge = unit.edge
    source, target = _node_iri(edge.source), _node_iri(edge.target)
    relation = f"<{iri('r', names.local('r', edge.relation))}>"
    record = RecordText().add(lead)
    if statement is None:
        _triple(record, source, relation, target, ("node_id", "relation", "node_id"))
        return record.build(unit.key)
    blank = f"_:s{statement}"
    _triple(record, blank, f"<{RDF_TYPE}>", f"<{RDF_STATEMENT}>")
    for predicate, obj, kind in ((RDF_SUBJECT, source, "node_id"), (RDF_PREDICATE, relation, "relation"),
                                 (RDF_OBJECT, target, "node_id")):
        _triple(record.add("\n"), blank, f"<{predicate}>", obj, (None, None, kind))
    _properties(record, blank, names, edge.properties)
    return record.build(unit.key)


def preamble(graph: Graph) -> str:
    """One triple per declared name of the graph (core.formats.rdf_names), each on its own line (built once)."""
    return derived(graph, "ntriples preamble", lambda: "".join(
        f"<{iri(prefix, local)}> <{RDFS_LABEL}> {string_literal(name)} .\n"
        for prefix, local, name in vocabulary(graph).declared))


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    memo = record_memo(graph, NAME)  # a record depends on its unit, its lead and its statement number
    names = vocabulary(graph)
    records = []
    plain: set[tuple[str, str, str]] = set()
    statements = 0
    for index, unit in enumerate(units):
        lead = "\n" if index else ""
        statement = None
        if not unit.is_node:
            triple = (unit.edge.source, unit.edge.relation, unit.edge.target)
            if unit.edge.properties or triple in plain:
                statements += 1
                statement = statements
            else:
                plain.add(triple)
        key = (unit.key, lead, statement)
        record = memo.get(key)
        if record is None:
            record = memo[key] = (_node_record(unit, lead, names) if unit.is_node
                                  else _edge_record(unit, lead, statement, names))
        records.append(record)
    return without_closing(NAME, preamble(graph), records)


# ---------------------------------------------------------------------------------------------- decoding

_IRI = re.compile(r"<([^<>\"{}|^`\\\x00-\x20]*)>")
_BLANK = re.compile(r"_:([A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?)")
_STRING = re.compile(r'"((?:[^"\\\n\r]|\\.)*)"')
_LANGUAGE = re.compile(r"@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*)")
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_UCHAR = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))", re.DOTALL)


def _unescape(text: str, line: int, column: int) -> str:
    def replace(match: re.Match) -> str:
        if match.group(3) is not None:
            if match.group(3) in _ESCAPES:
                return _ESCAPES[match.group(3)]
            raise FormatError(f"unknown escape \\{match.group(3)!r:.6}", f"line {line}, column {column + 1}",
                              "write \\\\, \\\", \\n, \\r, \\t or \\uXXXX", line=line)
        code = int(match.group(1) or match.group(2), 16)
        if code > 0x10FFFF:
            raise FormatError(f"\\U{code:08X} is beyond Unicode", f"line {line}, column {column + 1}",
                              "write a code point up to 10FFFF", line=line)
        return chr(code)

    return _UCHAR.sub(replace, text) if "\\" in text else text


class _Line:
    def __init__(self, text: str, number: int) -> None:
        self.text, self.number, self.position = text, number, 0

    def error(self, what: str) -> FormatError:
        return FormatError(what, f"line {self.number}, column {self.position + 1}", _FIX, line=self.number)

    def space(self) -> None:
        while self.position < len(self.text) and self.text[self.position] in " \t":
            self.position += 1

    def term(self, kinds: str) -> Term:
        self.space()
        for kind, pattern in (("iri", _IRI), ("blank", _BLANK), ("literal", _STRING)):
            if kind not in kinds:
                continue
            match = pattern.match(self.text, self.position)
            if match is None:
                continue
            start, self.position = self.position, match.end()
            if kind != "literal":
                return Term(kind, match.group(1))
            value = _unescape(match.group(1), self.number, start)
            if self.text.startswith("^^", self.position):
                self.position += 2
                datatype = _IRI.match(self.text, self.position)
                if datatype is None:
                    raise self.error("expected a datatype IRI after ^^")
                self.position = datatype.end()
                return Term("literal", value, datatype.group(1))
            language = _LANGUAGE.match(self.text, self.position)
            if language is not None:
                self.position = language.end()
                return Term("literal", value, None, language.group(1))
            return Term("literal", value)
        shown = repr(self.text[self.position:self.position + 12]) if self.position < len(self.text) else "the end"
        raise self.error(f"expected {' or '.join(kinds.split())}, found {shown}")


def _triples(text: str):
    for number, raw in split_lines(text):
        line = _Line(raw, number)
        line.space()
        if line.position == len(raw) or raw.startswith("#", line.position):
            continue
        triple = (line.term("iri blank"), line.term("iri"), line.term("iri blank literal"))
        line.space()
        if not raw.startswith(".", line.position):
            raise line.error("expected ' .' ending the triple")
        line.position += 1
        line.space()
        if line.position < len(raw) and not raw.startswith("#", line.position):
            raise line.error(f"unexpected text after the triple: {raw[line.position:line.position + 20]!r}")
        yield triple


def decode(text: str) -> Graph:
    return graph_from_triples(_triples(text))


FORMAT = Format(
    name=NAME,
    title="RDF N-Triples",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=after_whole_records,  # each line reads alone; a statement's blank node is named in its own lines
    example="<http://example.org/node/svc-api> <http://example.org/relation/depends_on> "
            "<http://example.org/node/svc-auth> .",
)
