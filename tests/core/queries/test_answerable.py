"""A query has an answer on a graph only when a context holding nothing would not give it as well."""

from __future__ import annotations

import pytest

from core.errors import ParameterError
from core.graph.model import Edge, Graph, Node
from core.graph.units import node_key
from core.io.samples import load_sample
from core.metrics.cut_metrics import DecodedCut, answers
from core.queries import OWNERS, PREREQUISITE_PATH, PREREQUISITES, RELATION_BETWEEN, query
from core.queries.answerable import has_answer, require_answer

JETSON = load_sample("nvidia-jetson")


def test_prerequisites_of_a_concept_without_any_have_no_answer():
    lonely = query(PREREQUISITES, concept="1")  # Jetson Orin needs nothing
    assert not has_answer(lonely, lonely.solve(JETSON))
    with pytest.raises(ParameterError, match="no answer"):
        require_answer(lonely, JETSON)
    require_answer(query(PREREQUISITES, concept="12"), JETSON)  # Tensorrt's are Cuda Toolkit and Cudnn


def test_owners_of_a_node_without_owners_have_no_answer_though_the_answer_names_it():
    graph = Graph.build([Node("a", "service")], [])
    owners = query(OWNERS, nodes=("a",))
    assert owners.solve(graph).answer == {"a": []} and not has_answer(owners, owners.solve(graph))


def test_two_unlabelled_unrelated_concepts_have_no_answer_but_labelled_ones_do():
    bare = Graph.build([Node("a", "T"), Node("b", "T")], [])
    labelled = Graph.build([Node("a", "T", (("label", "A"),)), Node("b", "T", (("label", "B"),))], [])
    between = query(RELATION_BETWEEN, first="a", second="b")
    assert not has_answer(between, between.solve(bare))
    assert has_answer(between, between.solve(labelled))  # the labels must come from the context


def _diamond() -> Graph:
    """d depends on b and on c, both of which depend on a: two chains of the same length from d to a."""
    nodes = [Node(node_id, "T", (("label", node_id.upper()),)) for node_id in "abcd"]
    edges = [Edge("d", "depends_on", "b"), Edge("d", "depends_on", "c"), Edge("b", "depends_on", "a"),
             Edge("c", "depends_on", "a")]
    return Graph.build(nodes, edges)


def test_a_chain_query_accepts_every_chain_of_the_shortest_length():
    graph = _diamond()
    chain = query(PREREQUISITE_PATH, start="a", concept="d")
    gold = chain.solve(graph)
    assert gold.answer == ["D", "B", "A"]  # one of the two, for display
    assert gold.accepts(["D", "C", "A"]) and not gold.accepts(["D", "A"]) and not gold.accepts(["D", "X", "A"])
    # a context that kept only the other chain answers too
    other = Graph.build([node for node in graph.nodes if node.id != "b"],
                        [edge for edge in graph.edges if "b" not in (edge.source, edge.target)])
    assert answers(chain, gold, DecodedCut(other))
    assert node_key("b") in gold.evidence  # the evidence stays the displayed chain's
