"""The formats the field's benchmarks use: 400 hostile graphs each in the exhaustive tier, back exactly (lossless) or as their stated loss."""

from __future__ import annotations

import pytest
from hypothesis import given

from core.formats import FORMATS
from core.formats.untyped_pairs import PLACEHOLDER_RELATION, PLACEHOLDER_TYPE
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

BENCHMARK_FORMATS = ["jsonld", "ntriples", "dot", "edge_set", "adjacency_list", "gml", "cypher", "xml",
                     "relation_tables", "mermaid"]


def what_survives(name: str, graph: Graph) -> Graph:
    """The graph a format's decoder gives back: the graph itself, or what its `lost` note says is left."""
    if FORMATS.get(name).lossless:
        return graph
    if name == "mermaid":  # loses properties only
        return Graph.build([Node(node.id, node.type) for node in graph.nodes],
                           [Edge(edge.source, edge.relation, edge.target) for edge in graph.edges])
    return Graph.build([Node(node.id, PLACEHOLDER_TYPE) for node in graph.nodes],
                       [Edge(edge.source, PLACEHOLDER_RELATION, edge.target) for edge in graph.edges])


def test_every_benchmark_format_is_registered():
    assert set(BENCHMARK_FORMATS) <= set(FORMATS.names())
    assert {name for name in BENCHMARK_FORMATS if not FORMATS.get(name).lossless} == {"edge_set", "adjacency_list",
                                                                                      "mermaid"}


@pytest.mark.parametrize("name", BENCHMARK_FORMATS)
@cross_product(400)
@given(graph=graphs())
def test_hostile_graphs_come_back_as_the_format_promises(name, graph):
    format_ = FORMATS.get(name)
    assert format_.decode(format_.render(graph, graph_units(graph)).text) == what_survives(name, graph)
