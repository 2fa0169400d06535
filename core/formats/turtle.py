"""turtle: RDF Turtle with fixed prefixes, parsed back with rdflib.

    n:svc-auth a t:service ;
        r:depends_on n:db-identity, n:svc-noise-0000 ;
        r:owned_by n:team-core .

Nodes, types, relations and property keys are local names under the prefixes n:, t:, r: and p:, all
free of escapes (core.formats.rdf_names): an id of name characters is its own local name, any other id
a readable form of it with a code after `:` (`n:Washington_DC:5ra6ab`); a type, relation or key that
is no name is given a readable local name, declared after the prefixes with its exact name
(`r:largest_city rdfs:label "largest city" .`). A node has an rdfs:label literal where it says more
than its IRI: its `label` property, else the id of a coded name (core.formats.rdf_terms). Property values are typed literals: a string, an
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

from collections.abc import Sequence

import rdflib
from rdflib import BNode, Literal, URIRef

from core.errors import FormatError
from core.formats.base import Format, Record, RecordText, Rendering
from core.formats.rdf_names import NAMESPACES, RDFS, Vocabulary, node_local, vocabulary
from core.formats.rdf_terms import RDF, Term, graph_from_triples, literal, node_label, string_literal
from core.formats.subject_groups import subject_groups
from core.graph.derived import derived
from core.graph.model import Graph, Properties
from core.graph.units import Unit

NAME = "turtle"
# The prefixes every document starts with; a graph's declarations follow them (`preamble`).
PREAMBLE = "\n".join([f"@prefix rdf: <{RDF}> .", f"@prefix rdfs: <{RDFS}> ."]
                     + [f"@prefix {prefix}: <{iri}> ." for prefix, iri in NAMESPACES.items()]) + "\n"
_NEXT_PREDICATE = " ;\n    "
_END = " ."

__all__ = ["NAMESPACES", "PREAMBLE", "literal", "string_literal"]

GRAMMAR = """\
RDF Turtle. n:<id> a t:<type> is a node, its rdfs:label its name; n:a r:<relation> n:b is an edge \
a --relation--> b; p:<key> gives a property as a literal. `;` repeats the subject, `,` the subject and \
predicate. A t:, r: or p: name with an rdfs:label in the header stands for that exact name. \
An rdf:Statement blank node is one more edge (a parallel copy, or one with p: properties), not \
asserted as a plain triple."""


def preamble(graph: Graph) -> str:
    """The prefixes, then the declarations of the graph's names that are not local names (built once per graph)."""
    return derived(graph, "turtle preamble", lambda: PREAMBLE + "".join(
        f"{prefix}:{local} rdfs:label {string_literal(name)} .\n" for prefix, local, name in vocabulary(graph).declared))


def _node(record: RecordText, node_id: str) -> RecordText:
    return record.add("n:").add(node_local(node_id), "node_id")


def _name(record: RecordText, names: Vocabulary, prefix: str, value: str, kind) -> RecordText:
    return record.add(prefix + ":").add(names.local(prefix, value), kind)


def _add_string(record: RecordText, value: str, kind) -> None:
    record.add('"').add(string_literal(value)[1:-1], kind).add('"')


def _add_properties(record: RecordText, names: Vocabulary, properties: Properties) -> None:
    for key, value in properties:
        _name(record.add(_NEXT_PREDICATE), names, "p", key, "property_key").add(" ")
        if isinstance(value, str):
            _add_string(record, value, "property_value")
        else:
            record.add(literal(value), "property_value")


def render(graph: Graph, units: Sequence[Unit]) -> Rendering:
    names = vocabulary(graph)
    records: list[Record] = []
    open_subject: str | None = None  # subject of the statement left open; None when none is
    open_relation: str | None = None  # its last predicate, when that is a relation
    plain: set[tuple[str, str, str]] = set()
    for group in subject_groups(units):
        subject = group.subject
        if group.node is not None:
            node = group.node.node
            record = RecordText().add(_END + "\n" if records else "\n")
            _node(record, subject).add(" a ")
            _name(record, names, "t", node.type, "node_type")
            label, is_property, properties = node_label(node)
            if label is not None:
                _add_string(record.add(_NEXT_PREDICATE + "rdfs:label "), label,
                            "property_value" if is_property else "node_id")
            _add_properties(record, names, properties)
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
                            _node(record.add(_END + "\n" if records else "\n"), subject).add(" ")
                        _name(record, names, "r", relation, "relation").add(" ")
                    _node(record, edge.target)
                    open_subject, open_relation = subject, relation
                else:
                    record.add((_END + "\n" if records else "\n") + "[] a rdf:Statement" + _NEXT_PREDICATE
                               + "rdf:subject ")
                    _node(record, edge.source).add(_NEXT_PREDICATE + "rdf:predicate ")
                    _name(record, names, "r", edge.relation, "relation").add(_NEXT_PREDICATE + "rdf:object ")
                    _node(record, edge.target)
                    _add_properties(record, names, edge.properties)
                    open_subject, open_relation = None, None
                records.append(record.build(unit.key))
    closings = ("",) + (_END,) * len(records)  # every record leaves its statement open
    return Rendering(NAME, preamble(graph), tuple(records), closings)


def _statement_start(rendering: Rendering, kept: int, records_end: int) -> int:
    """Where the statement the last whole record belongs to begins (after the " ." ending the one before).

    A raw cut ends inside that statement or just after it, in the next one; the statements before
    are complete and name nothing the tail needs (blank nodes are written `[]`, fresh each time; the
    declarations are in the preamble).
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


def _term(node: object) -> Term:
    if isinstance(node, Literal):
        return Term("literal", str(node), str(node.datatype) if node.datatype else None, node.language)
    return Term("blank" if isinstance(node, BNode) else "iri" if isinstance(node, URIRef) else "other", str(node))


def decode(text: str) -> Graph:
    triples = sorted(_parse(text), key=lambda triple: tuple(map(str, triple)))  # the same errors on every run
    return graph_from_triples((_term(subject), _term(predicate), _term(obj)) for subject, predicate, obj in triples)


FORMAT = Format(
    name=NAME,
    title="RDF Turtle",
    lossless=True,
    grammar=GRAMMAR,
    render=render,
    decode=decode,
    tail_start=_statement_start,
    example='n:8 a t:city ; rdfs:label "Washington, D.C." . n:1 r:capital n:8 .',
)
