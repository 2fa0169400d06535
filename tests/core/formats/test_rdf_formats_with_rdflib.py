"""jsonld and ntriples: rdflib's own parsers read the same triples as the lab's decoders mean.

The lab's decoders read the text without an RDF library; the triples a decoded graph means are
those `turtle` writes for it (rdflib reads them back). A test fails when rdflib's reading of the
text and that graph's triples are not isomorphic (blank nodes matched up).
"""

from __future__ import annotations

import pytest
import rdflib
from hypothesis import given, settings
from rdflib.compare import isomorphic

from core.formats import FORMATS
from core.graph.units import graph_units
from tests.core.formats.independent_samples import SAMPLE_NAMES, sample_graphs
from tests.hypothesis_profiles import examples
from tests.strategies import graphs

RDFLIB_FORMATS = {"jsonld": "json-ld", "ntriples": "nt"}


def meant_triples(graph) -> rdflib.Graph:
    """The triples the lab's RDF mapping gives the graph (written as Turtle, read by rdflib)."""
    text = FORMATS.get("turtle").render(graph, graph_units(graph)).text
    return rdflib.Graph().parse(data=text, format="turtle")


def check_agreement(name: str, graph) -> None:
    text = FORMATS.get(name).render(graph, graph_units(graph)).text
    decoded = FORMATS.get(name).decode(text)
    parsed = rdflib.Graph().parse(data=text, format=RDFLIB_FORMATS[name])
    assert isomorphic(parsed, meant_triples(decoded)), text[:2000]
    assert decoded == graph


@pytest.mark.parametrize("sample", SAMPLE_NAMES)
@pytest.mark.parametrize("name", RDFLIB_FORMATS)
def test_rdflib_reads_every_sample_as_the_decoder_does(name, sample):
    check_agreement(name, sample_graphs()[sample])


@pytest.mark.parametrize("name", RDFLIB_FORMATS)
@settings(max_examples=examples(150, 50))
@given(graph=graphs())
def test_rdflib_reads_hostile_graphs_as_the_decoder_does(name, graph):
    check_agreement(name, graph)


def test_a_repeated_triple_is_one_plain_triple_and_one_statement_in_both_readings():
    from core.graph.model import Edge, Graph, Node
    graph = Graph.build([Node("a", "t"), Node("b", "t", (("w", 1.5),))], [Edge("a", "r", "b"), Edge("a", "r", "b")])
    for name in RDFLIB_FORMATS:
        text = FORMATS.get(name).render(graph, graph_units(graph)).text
        parsed = rdflib.Graph().parse(data=text, format=RDFLIB_FORMATS[name])
        assert len(set(parsed.subjects(rdflib.RDF.type, rdflib.RDF.Statement))) == 1
        check_agreement(name, graph)
