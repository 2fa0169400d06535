"""When a graph counts as large, and the figures of the graph itself that need no rendering."""

from __future__ import annotations

from core.graph.model import Edge, Graph, Node
from core.io.generate import service_graph
from core.reports.graph_size import LARGE_GRAPH_UNITS, graph_figures, is_large, unit_count

SMALL = Graph.build(
    [Node("api", "service", (("team", "web"),)), Node("db", "database"), Node("cache", "service"), Node("ops", "team")],
    [Edge("api", "depends_on", "db", (("weight", 2),)), Edge("cache", "depends_on", "db"),
     Edge("api", "depends_on", "cache"), Edge("ops", "owns", "api")])


def test_a_graph_is_large_above_the_threshold_in_nodes_plus_edges():
    assert unit_count(SMALL) == 8
    assert not is_large(SMALL, threshold=8) and is_large(SMALL, threshold=7)


def test_the_default_threshold_keeps_the_2000_service_graph_small():
    graph = service_graph(services=2000, noise_edges=4000)
    assert unit_count(graph) == 6_011 < LARGE_GRAPH_UNITS and not is_large(graph)


def test_the_figures_count_the_graph_exactly():
    figures = graph_figures(SMALL)
    assert (figures.nodes, figures.edges, figures.units) == (4, 4, 8)
    assert figures.node_types == (("service", 2), ("database", 1), ("team", 1))  # most common first, then by name
    assert figures.relations == (("depends_on", 3), ("owns", 1))
    assert figures.property_values == 2
    assert (figures.largest_out_degree, figures.largest_in_degree) == (2, 2)  # api's out-edges, db's in-edges


def test_an_empty_graph_has_zero_figures():
    figures = graph_figures(Graph.build([], []))
    assert (figures.units, figures.node_types, figures.largest_out_degree, figures.largest_in_degree) == (0, (), 0, 0)
