"""dot: pydot (a maintained DOT parser) reads the same nodes, edges and attributes as the lab's decoder."""

from __future__ import annotations

import json
import re

import pydot
import pytest
from hypothesis import given, settings

from core.formats import dot
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from tests.core.formats.independent_samples import SAMPLE_NAMES, sample_graphs
from tests.hypothesis_profiles import examples
from tests.strategies import graphs


def text_of(token: str) -> str:
    """A DOT token pydot returns as written: a quoted string (unescaped here with JSON's rules), or a bare word."""
    if token.startswith('"'):
        return json.loads(token, strict=False)  # \\, \", \n and \r mean the same in JSON; raw controls pass
    return token


def value_of(token: str):
    if token in ("true", "false"):
        return token == "true"
    if re.fullmatch(r"-?[0-9]+", token):
        return int(token)
    if re.fullmatch(r"-?[0-9]*\.[0-9]*", token):
        return float(token)
    return text_of(token)


def key_of(token: str) -> str:
    name = text_of(token)
    return name[1:] if name.startswith("~") else name


def pydot_graph(text: str) -> Graph:
    """The graph pydot's parse of the text means, read from pydot's nodes, edges and attributes alone."""
    (parsed,) = pydot.graph_from_dot_data(text)
    nodes = []
    for node in parsed.get_nodes():
        attributes = node.get_attributes()
        nodes.append(Node(text_of(node.get_name()), text_of(attributes.pop("type")),
                          tuple((key_of(key), value_of(value)) for key, value in attributes.items())))
    edges = []
    for edge in parsed.get_edges():
        attributes = edge.get_attributes()
        edges.append(Edge(text_of(edge.get_source()), text_of(attributes.pop("relation")), text_of(edge.get_destination()),
                          tuple((key_of(key), value_of(value)) for key, value in attributes.items())))
    return Graph.build(nodes, edges, missing_endpoints="create")


def check_agreement(graph: Graph) -> None:
    text = dot.render(graph, graph_units(graph)).text
    assert pydot_graph(text) == dot.decode(text) == graph


@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_pydot_reads_every_sample_as_the_decoder_does(sample):
    check_agreement(sample_graphs()[sample])


@settings(max_examples=examples(150, 50))
@given(graph=graphs())
def test_pydot_reads_hostile_graphs_as_the_decoder_does(graph):
    check_agreement(graph)


@pytest.mark.parametrize("value, written", [
    ("svc_api", "svc_api"), ("svc-api", '"svc-api"'), ("node", '"node"'), ("Graph", '"Graph"'), ("", '""'),
    ('a"b\\c\n', '"a\\"b\\\\c\\n"'), ("1", '"1"'),
])
def test_names_are_bare_only_when_dot_reads_them_as_identifiers(value, written):
    assert dot.dot_id(value) == written


@pytest.mark.parametrize("value, written", [
    (True, "true"), ("true", '"true"'), (1, "1"), (1.0, "1.0"), (1e-05, "0.00001"), (-0.0, "-0.0"),
    (1e22, "10000000000000000000000.0"), ("x", "x"), ("1.0", '"1.0"'),
])
def test_property_values_keep_their_types_without_exponents(value, written):
    assert dot.dot_value(value) == written
    graph = Graph.build([Node("a", "t", (("k", value),))], [])
    decoded = dict(dot.decode(dot.render(graph, graph_units(graph)).text).nodes[0].properties)["k"]
    assert decoded == value and type(decoded) is type(value)
