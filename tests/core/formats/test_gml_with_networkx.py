"""gml: networkx's GML reader (nx.parse_gml) reads the same graph as the lab's decoder."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings

from core.formats import gml
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from tests.core.formats.independent_samples import SAMPLE_NAMES, sample_graphs
from tests.hypothesis_profiles import examples
from tests.strategies import graphs

LIST_TYPES = {"text": str, "int": int, "real": float, "bool": bool}


def text_of(value) -> str:
    """A string networkx read (its character references already resolved), with the lab's backslash escapes undone."""
    return gml.unescape_backslashes(value, "networkx")


def properties_of(attributes: dict) -> tuple:
    listed = attributes.pop("property", [])
    pairs = [(key, text_of(value) if isinstance(value, str) else value) for key, value in attributes.items()]
    for entry in listed if isinstance(listed, list) else [listed]:
        ((kind, value),) = [(kind, value) for kind, value in entry.items() if kind != "key"]
        value = text_of(value) if kind == "text" else bool(value) if kind == "bool" else value
        assert type(value) is LIST_TYPES[kind]
        pairs.append((text_of(entry["key"]), value))
    return tuple(pairs)


def networkx_graph(text: str) -> Graph:
    """The graph networkx's parse of the text means: node numbers as ids, labels as names."""
    network = nx.parse_gml(text, label=None)
    assert network.is_directed() and network.is_multigraph()
    names = {number: text_of(data["label"]) for number, data in network.nodes(data=True)}
    nodes = []
    for number, data in network.nodes(data=True):
        attributes = {key: value for key, value in data.items() if key not in ("label", "type")}
        if "type" in data:
            nodes.append(Node(names[number], text_of(data["type"]), properties_of(attributes)))
    edges = []
    for source, target, data in network.edges(data=True):
        attributes = {key: value for key, value in data.items() if key != "relation"}
        edges.append(Edge(names[source], text_of(data["relation"]), names[target], properties_of(attributes)))
    return Graph.build(nodes, edges, missing_endpoints="create")


def check_agreement(graph: Graph) -> None:
    text = gml.render(graph, graph_units(graph)).text
    assert networkx_graph(text) == gml.decode(text) == graph


@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_networkx_reads_every_sample_as_the_decoder_does(sample):
    check_agreement(sample_graphs()[sample])


@settings(max_examples=examples(150, 50))
@given(graph=graphs())
def test_networkx_reads_hostile_graphs_as_the_decoder_does(graph):
    check_agreement(graph)


def test_a_cut_without_an_edges_endpoint_names_it_with_an_untyped_node():
    graph = Graph.build([Node("a", "t"), Node("b", "t")], [Edge("a", "r", "b")])
    units = [unit for unit in graph_units(graph) if unit.key != "n:b"]
    text = gml.render(graph, units).text
    assert '  node [ id 1 label "b" ]\n  edge [ source 0 target 1 relation "r" ]' in text
    assert networkx_graph(text) == gml.decode(text) == Graph.build([Node("a", "t")], [Edge("a", "r", "b")],
                                                                    missing_endpoints="create")


@pytest.mark.parametrize("value, written", [
    ("plain", '"plain"'), ("a\\b", '"a\\\\b"'), ('"&', '"&quot;&amp;"'), ("\x00\n", '"\\u0000\\u000a"'),
    ("\x85", '"\\u0085"'), ("[]", '"\\u005b]"'), ("()", '"\\u0028)"'), ("é", '"é"'), ("&amp;", '"&amp;amp;"'),
])
def test_strings_escape_what_html_character_references_cannot_carry(value, written):
    assert '"' + gml.escape_text(value) + '"' == written
    assert gml.unescape_text(gml.escape_text(value), "test") == value


def test_booleans_and_odd_names_are_property_lists_with_their_type():
    graph = Graph.build([Node("a", "t", (("ok", True), ("tier", 1), ("w", 1e-05), ("id", "x"), ("", "")))], [])
    text = gml.render(graph, graph_units(graph)).text
    assert 'property [ key "ok" bool 1 ]' in text and " tier 1" in text and " w 1.0e-05" in text
    assert 'property [ key "id" text "x" ]' in text and 'property [ key "" text "" ]' in text
    check_agreement(graph)
