"""The orderings' scores as numbers: they sort units as the orderings do, edges with their weaker endpoint."""

from __future__ import annotations

from itertools import pairwise

import pytest

from core.graph.hops import hop_units
from core.io.generate import service_graph
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, order_units

GRAPH = service_graph(10, 10, 3)
SEEDS = ("db-identity",)
UNITS = hop_units(GRAPH, SEEDS)


@pytest.mark.parametrize("name", ["personalized_pagerank", "centrality", "hop_tiers", "question_bm25"])
def test_the_scores_never_contradict_the_orderings_node_order(name):
    ordering = ORDERINGS.get(name)
    inputs = OrderingInputs(seeds=SEEDS, question="Which teams own services that depend on db-identity?")
    scores = ordering.relevance(GRAPH, UNITS, inputs)
    ranked = [unit for unit in order_units(GRAPH, UNITS, ordering, "nodes_then_edges", inputs) if unit.is_node]
    values = [scores[unit.key] for unit in ranked]
    assert all(first >= second - 1e-9 for first, second in pairwise(values))
    assert set(scores) == {unit.key for unit in UNITS}


def test_hop_scores_halve_with_the_first_hop_and_edges_take_the_weaker_end_under_pagerank():
    inputs = OrderingInputs(seeds=SEEDS)
    hops = ORDERINGS.get("hop_tiers").relevance(GRAPH, UNITS, inputs)
    assert hops["n:db-identity"] == 1.0
    assert {hops[unit.key] for unit in UNITS if unit.hop == 1} == {0.5}
    pagerank = ORDERINGS.get("personalized_pagerank").relevance(GRAPH, UNITS, inputs)
    for unit in UNITS:
        if not unit.is_node:
            assert pagerank[unit.key] == min(pagerank[f"n:{unit.edge.source}"], pagerank[f"n:{unit.edge.target}"])
    assert ORDERINGS.get("shuffled").relevance is None and ORDERINGS.get("canonical").relevance is None
