"""Each unit's relevance score under a ranked ordering, for the policies that weigh relevance per token.

The same figures the orderings sort by (`core.retrieval.relevance`), kept as numbers: PageRank with
restarts at the seeds, k-core number then degree, BM25 against the question, the hop level. A node has
its own score; under the graph scores an edge has its weaker endpoint's (the orderings' convention);
under BM25 an edge has its own. Higher is more relevant; a unit the scores do not reach gets 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from core.graph.model import Graph
from core.graph.units import Unit
from core.retrieval.relevance import bm25_scores, centrality, personalized_pagerank


def _by_nodes(units: Sequence[Unit], score: Callable[[str], float]) -> dict[str, float]:
    return {unit.key: score(unit.node.id) if unit.is_node else min(score(unit.edge.source), score(unit.edge.target))
            for unit in units}


def pagerank_scores(graph: Graph, units: Sequence[Unit], seeds: Sequence[str], direction: str) -> dict[str, float]:
    scores = personalized_pagerank(graph, seeds, direction)
    return _by_nodes(units, lambda node_id: scores.get(node_id, 0.0))


def centrality_scores(graph: Graph, units: Sequence[Unit]) -> dict[str, float]:
    """k-core number, then degree as the fraction below the next core number (the ordering's two keys)."""
    figures = centrality(graph)
    widest = 1 + max((degree for _, degree in figures.values()), default=0)

    def score(node_id: str) -> float:
        core, degree = figures.get(node_id, (0, 0))
        return core + degree / widest

    return _by_nodes(units, score)


def bm25_unit_scores(graph: Graph, units: Sequence[Unit], question: str) -> dict[str, float]:
    ordered = sorted(units, key=lambda unit: (not unit.is_node, unit.key))  # as the ordering scores them
    return dict(bm25_scores(graph, ordered, question))


def hop_scores(units: Sequence[Unit]) -> dict[str, float]:
    """1 / (1 + hop level): the seeds 1, their neighbours 1/2, ...; unreachable units 0."""
    return {unit.key: 0.0 if math.isinf(unit.hop) else 1.0 / (1.0 + unit.hop) for unit in units}
