"""Generators: deterministic by seed, the sizes asked for, and the shapes they promise."""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest

from core.errors import ParameterError
from core.io.generate import (
    SCALE_FREE_RELATIONS,
    TRANSPORT_SCHEMA,
    learning_graph,
    scale_free_graph,
    service_graph,
    transport_graph,
)

GENERATORS = [
    (learning_graph, {"concepts": 30, "max_prerequisites": 3}),
    (transport_graph, {"lines": 3, "stations_per_line": 6, "zones": 2}),
    (scale_free_graph, {"edges": 500, "edges_per_node": 3}),
]


@pytest.mark.parametrize("generator, arguments", GENERATORS, ids=lambda item: getattr(item, "__name__", "arguments"))
def test_the_same_seed_gives_the_same_graph_and_another_seed_another(generator, arguments):
    assert generator(**arguments, seed=1).sha256 == generator(**arguments, seed=1).sha256
    assert generator(**arguments, seed=1).sha256 != generator(**arguments, seed=2).sha256


def test_the_service_graph_is_unchanged():
    graph = service_graph()
    assert (len(graph.nodes), len(graph.edges)) == (43, 88)


def test_a_learning_graph_is_a_dag_of_taxonomy_typed_concepts():
    graph = learning_graph(60, 3, seed=7)
    assert len(graph.nodes) == 60 and [node.id for node in graph.nodes] == sorted(str(n) for n in range(1, 61))
    assert nx.is_directed_acyclic_graph(graph.to_networkx())
    assert all(int(edge.source) > int(edge.target) and edge.relation == "depends_on" for edge in graph.edges)
    assert {node.type for node in graph.nodes} == {"FOUND", "CORE", "METHOD", "TOOL", "APPLIED"}
    assert graph.node_by_id["1"].type == "FOUND" and graph.node_by_id["60"].type == "APPLIED"
    assert len({dict(node.properties)["label"] for node in graph.nodes}) == 60
    per_concept = Counter(edge.source for edge in graph.edges)
    assert max(per_concept.values()) <= 3 and set(per_concept) == {str(n) for n in range(2, 61)}


def test_a_transport_network_has_lines_stations_zones_and_its_schema():
    graph = transport_graph(lines=4, stations_per_line=8, zones=3, seed=7)
    types = Counter(node.type for node in graph.nodes)
    assert types["line"] == 4 and types["zone"] == 3
    assert Counter(edge.relation for edge in graph.edges)["serves"] == 32  # every stop of every line
    zones = Counter(edge.source for edge in graph.edges if edge.relation == "in_zone")
    assert set(zones) == {node.id for node in graph.nodes if node.type == "station"} and set(zones.values()) == {1}
    assert types["station"] < 32  # some stops are interchanges
    assert graph.schema == TRANSPORT_SCHEMA
    assert (graph.schema.reading_of("serves").inverse, graph.schema.reading_of("in_zone").inverse) == (
        "is served by", "contains")


@pytest.mark.parametrize("edges", [0, 1, 7, 1000])
def test_a_scale_free_graph_has_exactly_the_edges_asked_for(edges):
    assert len(scale_free_graph(edges, 4, seed=3).edges) == edges


def test_a_scale_free_graph_is_typed_and_its_degrees_are_skewed():
    graph = scale_free_graph(20_000, 5, seed=7)
    types = {node.id: node.type for node in graph.nodes}
    assert all(edge.relation == SCALE_FREE_RELATIONS[types[edge.target]] for edge in graph.edges)
    assert len(set(types.values())) == 4 and len({edge.relation for edge in graph.edges}) == 4
    assert len({(edge.source, edge.target) for edge in graph.edges}) == len(graph.edges)  # distinct targets
    in_degree = Counter(edge.target for edge in graph.edges)
    assert max(in_degree.values()) > 20 * len(graph.edges) / len(graph.nodes)  # hubs, unlike a random graph


@pytest.mark.parametrize("edges, per_node", [(20_000, 5), (999, 4)])
def test_a_scale_free_graph_has_one_new_node_per_edges_per_node_edges(edges, per_node):
    # so 200,000 edges at the default 5 per node give 40,005 nodes: inside the default import limits
    graph = scale_free_graph(edges, per_node, seed=1)
    assert len(graph.nodes) == per_node + -(-edges // per_node)


@pytest.mark.parametrize("call", [
    lambda: learning_graph(-1), lambda: learning_graph(5, 0), lambda: transport_graph(lines=11),
    lambda: transport_graph(zones=0), lambda: transport_graph(interchange_share=1.5), lambda: scale_free_graph(-1),
    lambda: scale_free_graph(10, 0),
])
def test_impossible_sizes_are_parameter_errors(call):
    with pytest.raises(ParameterError):
        call()


def test_every_public_generator_is_registered_with_its_numeric_parameters():
    from core.io.generate import GENERATORS, GRAPH_GENERATOR_LIST, generator_parameters

    assert GENERATORS.names() == ["services", "learning", "transport", "scale_free"]
    assert [GENERATORS.get(name) for name in GENERATORS] == [function for _, function in GRAPH_GENERATOR_LIST]
    assert generator_parameters(GENERATORS.get("services")) == {"services": 40, "noise_edges": 80, "seed": 7}
    assert generator_parameters(GENERATORS.get("transport"))["interchange_share"] == 0.25
    assert GENERATORS.get("learning")(concepts=5) == learning_graph(concepts=5)
