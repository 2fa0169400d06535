"""Relevance scores a real retriever would compute, without the answer: PageRank, centrality, BM25.

- `personalized_pagerank(graph, seeds, direction)`: the stationary distribution of a random walk
  that restarts at the seeds (HippoRAG-style retrieval), with networkx's definition (damping 0.85,
  parallel edges as weights, a dangling node's mass sent back to the seeds). networkx computes it
  with scipy, which this project does not install, so it is a numpy power iteration here; the
  tests check it against the eigenvector of `networkx.google_matrix`.
- `centrality(graph)`: each node's k-core number and degree (the graph-linearization orderings of
  arXiv 2410.19494), edges and parallel copies counted, self-loops left out of the core number.
- `bm25_scores(graph, units, question)`: BM25 (bm25s, Lucene variant, English stop words) of each
  unit's text against the question. A node's text is its id, type and label; an edge's is its
  source id and label, relation, and target id and label. `_` splits words like `-` does, so
  `depends_on` matches "depends".

Results are kept on the graph (a sweep orders the same graph once per format), the last RESULTS_KEPT of them:
they go with it, and an equal graph loaded again computes them again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

import bm25s
import networkx as nx
import numpy as np
from cachetools import LRUCache

from core.errors import ParameterError
from core.graph.derived import derived
from core.graph.hops import check_direction
from core.graph.model import Graph
from core.graph.units import Unit
from core.queries.model import label_of

DAMPING = 0.85
T = TypeVar("T")
RESULTS_KEPT = 32  # per graph: a page that tries seeds one after another keeps the last few PageRanks


# The dashboard's sessions are threads that share graphs. One lock for every graph, not one in each graph's memo:
# a graph sent to Ray is pickled with its memo, and a lock does not pickle.
_LOCK = threading.Lock()


def _cached(graph: Graph, key: Hashable, build: Callable[[], T]) -> T:
    kept: LRUCache[Hashable, object] = derived(graph, "relevance", lambda: LRUCache(maxsize=RESULTS_KEPT))
    with _LOCK:
        found = kept.get(key)
    if found is not None:
        return found  # type: ignore[return-value]  # the key says what was built
    value = build()
    with _LOCK:
        kept[key] = value
    return value


def personalized_pagerank(graph: Graph, seeds: Sequence[str], direction: str = "both") -> dict[str, float]:
    """node id -> PageRank with restarts at the seeds, following edges `direction` ("both": undirected)."""
    direction = check_direction(direction)
    missing = [seed for seed in seeds if seed not in graph.node_by_id]
    if missing:
        raise ParameterError(f"seed {missing[0]!r} is not a node of the graph", "seeds", "pick seeds from the graph")
    return _cached(graph, ("pagerank", tuple(seeds), direction),
                   lambda: _pagerank(graph, tuple(dict.fromkeys(seeds)), direction))


def _pagerank(graph: Graph, seeds: tuple[str, ...], direction: str, tolerance: float = 1e-12,
              max_iterations: int = 1000) -> dict[str, float]:
    index = {node.id: number for number, node in enumerate(graph.nodes)}
    size = len(index)
    if size == 0:
        return {}
    sources = np.fromiter((index[edge.source] for edge in graph.edges), dtype=np.int64, count=len(graph.edges))
    targets = np.fromiter((index[edge.target] for edge in graph.edges), dtype=np.int64, count=len(graph.edges))
    if direction == "in":
        sources, targets = targets, sources
    elif direction == "both":
        sources, targets = np.concatenate((sources, targets)), np.concatenate((targets, sources))
    out_weight = np.bincount(sources, minlength=size).astype(float)
    restart = np.zeros(size)
    restart[[index[seed] for seed in seeds]] = 1.0 / len(seeds)
    dangling = out_weight == 0
    share = np.divide(1.0, out_weight, out=np.zeros(size), where=~dangling)
    scores = restart.copy()
    for _ in range(max_iterations):
        walked = np.bincount(targets, weights=scores[sources] * share[sources], minlength=size)
        updated = DAMPING * (walked + scores[dangling].sum() * restart) + (1 - DAMPING) * restart
        converged = np.abs(updated - scores).sum() < size * tolerance
        scores = updated
        if converged:
            break
    return {node.id: float(scores[number]) for node, number in zip(graph.nodes, range(size))}


def centrality(graph: Graph) -> dict[str, tuple[int, int]]:
    """node id -> (k-core number, degree); degree counts every incident edge, in or out."""
    def build() -> dict[str, tuple[int, int]]:
        simple = nx.Graph()
        simple.add_nodes_from(node.id for node in graph.nodes)
        simple.add_edges_from((edge.source, edge.target) for edge in graph.edges if edge.source != edge.target)
        cores = nx.core_number(simple)
        degree = dict.fromkeys(graph.node_by_id, 0)
        for edge in graph.edges:
            degree[edge.source] += 1
            degree[edge.target] += 1
        return {node_id: (int(cores[node_id]), degree[node_id]) for node_id in degree}
    return _cached(graph, "centrality", build)


def unit_text(graph: Graph, unit: Unit) -> str:
    """What BM25 reads of a unit: ids, labels, types and the relation, `_` read as a space."""
    if unit.is_node:
        node = unit.node
        parts = [node.id, node.type, label_of(graph, node.id) if label_of(graph, node.id) != node.id else ""]
    else:
        edge = unit.edge
        parts = [edge.source, _label(graph, edge.source), edge.relation, edge.target, _label(graph, edge.target)]
    return " ".join(part for part in parts if part).replace("_", " ")


def _label(graph: Graph, node_id: str) -> str:
    label = label_of(graph, node_id)
    return "" if label == node_id else label


def bm25_scores(graph: Graph, units: Sequence[Unit], question: str) -> dict[str, float]:
    """unit key -> BM25 score of its text against the question (0 for every unit when no word matches)."""
    keys = tuple(unit.key for unit in units)

    def build() -> dict[str, float]:
        if not keys:
            return {}
        corpus = bm25s.tokenize([unit_text(graph, unit) for unit in units], stopwords="en", show_progress=False)
        asked = bm25s.tokenize(question.replace("_", " "), stopwords="en", show_progress=False, return_ids=False)
        words = [word for word in asked[0] if word in corpus.vocab]
        if not words:
            return dict.fromkeys(keys, 0.0)
        retriever = bm25s.BM25()
        retriever.index(corpus, show_progress=False)
        scores = retriever.get_scores(words)
        return {key: float(score) for key, score in zip(keys, scores)}
    return _cached(graph, ("bm25", keys, question), build)
