"""turtle: RDF Turtle with fixed prefixes, read back with rdflib."""

from __future__ import annotations

import math

import pytest
import rdflib
from rdflib import RDF, RDFS, BNode, Literal, URIRef
from rdflib.compare import isomorphic

from core.errors import FormatError
from core.formats import rdf_names, turtle
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph

N, T, R, P = (rdflib.Namespace(turtle.NAMESPACES[prefix]) for prefix in "ntrp")


def render(graph):
    return turtle.render(graph, graph_units(graph))


def test_statements_group_objects_by_subject_and_relation():
    text = render(service_graph()).text
    assert text.startswith("@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
                           "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                           "@prefix n: <http://example.org/node/> .\n")
    assert ("\nn:svc-auth a t:service ;\n"
            "    r:depends_on n:db-identity, n:svc-noise-0000, n:svc-noise-0001, "
            "n:svc-noise-0031 ;\n    r:owned_by n:team-core .\n") in text
    assert turtle.decode(text) == service_graph()


def test_a_prefix_ends_its_open_statement():
    ending = "n:svc-api a t:service ;\n    r:depends_on n:svc-auth ."
    assert render(service_graph()).prefix_text(3).endswith(ending)


def test_duplicate_triples_and_edges_with_properties_are_reified_statements():
    graph = Graph.build([Node("a", "t"), Node("b", "t")],
                        [Edge("a", "r", "b"), Edge("a", "r", "b"), Edge("a", "r", "b", (("w", 2),)),
                         Edge("b", "r", "a")])
    text = render(graph).text
    assert text.count("n:a r:r n:b") == 1 and text.count("[] a rdf:Statement") == 2
    assert "    rdf:object n:b ;\n    p:w 2 ." in text
    parsed = rdflib.Graph().parse(data=text, format="turtle")
    assert len(set(parsed.subjects(RDF.type, RDF.Statement))) == 2
    assert len(list(parsed.triples((N.a, R.r, N.b)))) == 1  # RDF keeps one copy of a triple
    assert turtle.decode(text) == graph  # three edges a -r-> b come back


def test_the_text_means_the_intended_rdf_graph():
    graph = Graph.build([Node("a", "service", (("tier", 1),)), Node("b", "db", (("label", "B b"),))],
                        [Edge("a", "depends_on", "b"), Edge("a", "depends_on", "b", (("two words", "x"),))])
    expected = rdflib.Graph()
    expected.add((N.a, RDF.type, T.service))
    expected.add((N.a, P.tier, Literal(1)))
    expected.add((N.b, RDF.type, T.db))
    expected.add((N.b, RDFS.label, Literal("B b")))
    expected.add((P.two_words, RDFS.label, Literal("two words")))
    expected.add((N.a, R.depends_on, N.b))
    statement = BNode()
    for predicate, obj in [(RDF.type, RDF.Statement), (RDF.subject, N.a), (RDF.predicate, R.depends_on),
                           (RDF.object, N.b), (P.two_words, Literal("x"))]:
        expected.add((statement, predicate, obj))
    assert isomorphic(rdflib.Graph().parse(data=render(graph).text, format="turtle"), expected)


@pytest.mark.parametrize("value, name", [
    ("svc-api", "svc-api"), ("a b", "a_b:"), ("50%", "50:ida"), ("-x", "x:uca"), ("x.y", "xy:8da"),
    ("é🕸", "é🕸"), ("", ""), ("a:b/c#d", "abcd:dfa4evd"), ("\u2028", ":hzg"), ("a_b", "a_b"), ("a_b c", "ab_c:vea"),
])
def test_node_names_need_no_escape_and_give_back_their_id(value, name):
    assert rdf_names.node_local(value) == name
    graph = Graph.build([Node(value, value, ((value, value),))], [Edge(value, value, value)])
    text = render(graph).text
    assert "%" not in text.replace("50%", "") and turtle.decode(text) == graph


def test_types_relations_and_keys_that_are_no_names_are_declared_with_their_exact_name():
    graph = Graph.build([Node("a", "big city", (("zip code", "1"),))],
                        [Edge("a", "largest city", "a"), Edge("a", "largest_city", "a")])
    text = render(graph).text
    assert ('t:big_city rdfs:label "big city" .\nr:largest_city_2 rdfs:label "largest city" .\n'
            'p:zip_code rdfs:label "zip code" .\n') in text
    assert "    r:largest_city_2 n:a ;\n    r:largest_city n:a ." in text
    assert turtle.decode(text) == graph


def test_literals_keep_their_types():
    values = (("bool", True), ("int", 1), ("float", 1.0), ("text", "1"), ("zero", -0.0), ("tiny", 5e-324),
              ("big", 2**70), ("quote", 'say "hi"\\\n\r\t\x00'))
    graph = Graph.build([Node("a", "t", values)], [])
    text = render(graph).text
    assert "p:bool true ;" in text and "p:float 1.0e0 ;" in text and 'p:text "1"' in text
    assert "p:zero -0.0e0" in text and 'p:quote "say \\"hi\\"\\\\\\n\\r\\t\\u0000"' in text
    decoded = dict(turtle.decode(text).nodes[0].properties)
    assert decoded == dict(values) and type(decoded["bool"]) is bool and type(decoded["float"]) is float
    assert math.copysign(1, decoded["zero"]) == -1


@pytest.mark.parametrize("text, problem", [
    ("@prefix n: <http://example.org/node/> .\nn:a n:b", "invalid Turtle"),
    ("@prefix n: <http://example.org/node/> .\nn:a n:b .", r"invalid Turtle: objectList expected \(at line 2\)"),
    ("n:a a t:x .", "invalid Turtle"),
    (turtle.PREAMBLE + "n:a a t:x, t:y .", "two types"),
    (turtle.PREAMBLE + 'n:a a t:x ; p:k "1", "2" .', "two values"),
    (turtle.PREAMBLE + 'n:a p:k "1" .', "no type"),
    (turtle.PREAMBLE + 'n:a r:r "b" .', "expected an IRI"),
    (turtle.PREAMBLE + "<http://elsewhere/a> a t:x .", "expected a n: name"),
    (turtle.PREAMBLE + 'n:a a t:x ; p:k "1"@en .', "plain literal"),
    (turtle.PREAMBLE + 'n:a a t:x ; p:k 1.5 .', "unsupported"),
    (turtle.PREAMBLE + 'n:a a t:x ; p:k "x"^^<http://www.w3.org/2001/XMLSchema#integer> .', "ill-typed"),
    (turtle.PREAMBLE + "n:a%20b a t:x .", "not a node name this format writes"),
    (turtle.PREAMBLE + "n:ab: a t:x .", "not the name written for the id"),
    (turtle.PREAMBLE + "n:a:b:c a t:x .", "characters a name cannot"),
    (turtle.PREAMBLE + "n:a:9999999999 a t:x .", "beyond Unicode"),
    (turtle.PREAMBLE + "n:a:z a t:x .", "middle of a number"),
    (turtle.PREAMBLE + "n:a a t:x%20y .", "not a name this format writes"),
    (turtle.PREAMBLE + 'r:x rdfs:label "a", "b" .', "two names"),
    (turtle.PREAMBLE + 'n:a a t:x ; rdfs:label "A", "B" .', "two labels"),
    (turtle.PREAMBLE + 'n:a a t:x ; rdfs:label 1 .', "plain string literal"),
    (turtle.PREAMBLE + 'n:a a t:x ; rdfs:label "A" ; p:label "B" .', "an rdfs:label and a p:label"),
    (turtle.PREAMBLE + 'n:a rdfs:label "A" .', "no type"),
    (turtle.PREAMBLE + "[] rdf:subject n:a ; rdf:predicate r:r .", "no "),
    (turtle.PREAMBLE + "[] rdf:subject n:a, n:b ; rdf:predicate r:r ; rdf:object n:c .", "2 values"),
])
def test_malformed_documents_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem) as error:
        turtle.decode(text)
    assert error.value.where


def test_a_syntax_error_says_which_line():
    with pytest.raises(FormatError) as error:
        turtle.decode(turtle.PREAMBLE + "\nn:a a t:x .\nn:b a t:y\nn:c a t:z .")
    assert error.value.line == turtle.PREAMBLE.count("\n") + 4


def test_uri_refs_from_other_namespaces_are_refused_even_as_predicates():
    graph = rdflib.Graph()
    graph.add((N.a, URIRef("http://elsewhere/p"), N.b))
    with pytest.raises(FormatError, match="expected a r: name"):
        turtle.decode(graph.serialize(format="turtle"))


def test_the_reason_of_an_rdflib_syntax_error_is_read_from_its_public_message():
    message = 'at line 2 of <>:\nBad syntax (objectList expected) at ^ in:\n"...n:a n:b^ "'
    assert turtle.syntax_reason(message) == "objectList expected"
    assert turtle.syntax_reason("Unknown namespace prefix : t\nmore") == "Unknown namespace prefix : t"
