"""turtle, ntriples and jsonld write names as escape-free IRIs and labels as rdfs:label literals (issue 46, item 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rdflib
from rdflib import RDFS, Literal, URIRef

from core.cli import main
from core.formats import FORMATS
from core.formats.rdf_names import NAMESPACES, node_local
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io import load_graph_file

COUNTRIES = Path(__file__).resolve().parents[2] / "data" / "published-formats" / "countries" / "graph.json"
RDFLIB_NAMES = {"turtle": "turtle", "ntriples": "nt", "jsonld": "json-ld"}
SUFFIXES = {"turtle": "ttl", "ntriples": "nt", "jsonld": "jsonld"}


def labels_read_by_rdflib(name: str, text: str) -> dict[str, str]:
    parsed = rdflib.Graph().parse(data=text, format=RDFLIB_NAMES[name])
    return {str(subject): str(label) for subject, label in parsed.subject_objects(RDFS.label)}


@pytest.mark.parametrize("name", list(RDFLIB_NAMES))
def test_the_countries_graph_converts_with_its_labels_as_literals_and_no_percent_escape(name, tmp_path):
    output = tmp_path / f"countries.{SUFFIXES[name]}"
    assert main(["convert", str(COUNTRIES), str(output), "--to", name]) == 0
    text = output.read_text(encoding="utf-8")
    assert "%2C" not in text and "%20" not in text
    quoted = json.dumps("Washington, D.C.", ensure_ascii=False)
    assert quoted in text  # a literal: Turtle, N-Triples and JSON write this string alike
    labels = labels_read_by_rdflib(name, text)
    assert labels[NAMESPACES["n"] + "8"] == "Washington, D.C."
    assert labels[NAMESPACES["n"] + "7"] == 'The "Big Apple"'
    assert labels[NAMESPACES["r"] + "largest_city"] == "largest city"  # the relation's exact name, on its IRI
    assert labels[NAMESPACES["r"] + "shares_border_with"] == "shares border with"
    assert FORMATS.get(name).decode(text) == load_graph_file(COUNTRIES)


HOSTILE = ["Washington, D.C.", "Korea, Republic of", "St. John's", 'The "Big Apple"', "São Tomé", "日本 東京",
           "a\\b", "50% Club (test)", "line\nbreak"]


def hostile_graph() -> Graph:
    """Nodes named by a label property, nodes whose id is the name, and relations with spaces and dots."""
    labelled = [Node(f"c{index}", "place", (("label", label),)) for index, label in enumerate(HOSTILE)]
    named = [Node(label, "place") for label in HOSTILE]
    edges = [Edge(f"c{index}", "is also called", label) for index, label in enumerate(HOSTILE)]
    return Graph.build(labelled + named, edges + [Edge(HOSTILE[0], "capital of (U.S.)", HOSTILE[4])])


@pytest.mark.parametrize("name", list(RDFLIB_NAMES))
def test_labels_with_commas_spaces_dots_quotes_and_non_ascii_are_literals_and_decode_back(name):
    graph = hostile_graph()
    text = FORMATS.get(name).render(graph, graph_units(graph)).text
    assert "%" not in text.replace("50% Club", "")
    labels = labels_read_by_rdflib(name, text)
    for index, label in enumerate(HOSTILE):
        assert labels[NAMESPACES["n"] + f"c{index}"] == label  # the label property
        assert labels[NAMESPACES["n"] + node_local(label)] == label  # the id, on the node named by it
    assert labels[NAMESPACES["r"] + "is_also_called"] == "is also called"
    assert labels[NAMESPACES["r"] + "capital_of_U_S"] == "capital of (U.S.)"
    assert FORMATS.get(name).decode(text) == graph


def test_a_label_that_is_no_text_or_is_the_id_stays_a_property():
    coded = "St. John's"
    graph = Graph.build([Node("a", "t", (("label", 7),)), Node("b", "t", (("label", "b"),)), Node("c", "t"),
                         Node(coded, "t", (("label", coded),))], [])
    for name in RDFLIB_NAMES:
        text = FORMATS.get(name).render(graph, graph_units(graph)).text
        parsed = rdflib.Graph().parse(data=text, format=RDFLIB_NAMES[name])
        assert parsed.value(URIRef(NAMESPACES["n"] + "a"), RDFS.label) is None  # n:a already says "a"
        assert parsed.value(URIRef(NAMESPACES["n"] + "a"), URIRef(NAMESPACES["p"] + "label")) == Literal(7)
        assert parsed.value(URIRef(NAMESPACES["n"] + "b"), URIRef(NAMESPACES["p"] + "label")) == Literal("b")
        subject = URIRef(NAMESPACES["n"] + node_local(coded))
        assert parsed.value(subject, RDFS.label) == Literal(coded)  # the exact id beside its coded name
        assert parsed.value(subject, URIRef(NAMESPACES["p"] + "label")) == Literal(coded)
        assert FORMATS.get(name).decode(text) == graph


@pytest.mark.parametrize("name", list(RDFLIB_NAMES))
def test_an_id_written_as_it_is_in_its_iri_gets_no_label_and_a_coded_one_does(name):
    graph = Graph.build([Node("svc-auth", "service"), Node("8", "city"), Node("日本", "country"),
                         Node("Washington, D.C.", "city"), Node("c1", "city", (("label", "Paris"),))],
                        [Edge("8", "in", "日本")])
    text = FORMATS.get(name).render(graph, graph_units(graph)).text
    assert labels_read_by_rdflib(name, text) == {NAMESPACES["n"] + node_local("Washington, D.C."): "Washington, D.C.",
                                                 NAMESPACES["n"] + "c1": "Paris"}
    assert FORMATS.get(name).decode(text) == graph
