"""Orderings: the order units are written in, applied identically to every format.

An ordering ranks the units (`sequence`); a layout then arranges that ranking into what a format
writes:

- `nodes_then_edges`: every node in ranked order, then every edge in ranked order (the only layout
  for formats with separate node and edge sections, `Format.interleaves == False`);
- `interleaved`: each node followed by its incident edges whose other endpoint is already written.
  Nodes come in the order the ranking first mentions them (an edge ranked early pulls its
  endpoints forward), and each edge sits right after the later of its endpoints. No prefix ever
  holds an edge without both of its node records, and with `hop_tiers` every U_k(S) is a prefix.

The orderings: `canonical` (nodes by key, then edges by key), `shuffled` (a seeded random
permutation; the seed is recorded with every result), `evidence_first` (the query's evidence
units, then the rest canonically: an ORACLE upper bound, since it knows the answer), `bfs_from_seeds`
(breadth-first discovery order from the seeds; an edge ranks with its later-discovered endpoint)
and `hop_tiers` (seed document 002: by hop level, nodes before edges within a tier, then by key).

Orderings a real retriever would produce, without reading the gold evidence (scores in
`core.retrieval.relevance`; every tie goes nodes first, then by key):

- `personalized_pagerank`: by PageRank with restarts at the seeds (HippoRAG-style), best first;
- `centrality`: by k-core number, then degree (the graph-linearization orderings of arXiv
  2410.19494): one ordering, k-core first because degree alone favours hubs in a shallow core;
- `question_bm25`: by BM25 of each unit's text (ids, labels, types, relation) against the question
  (the seeds' ids and labels when no question text is given).

An edge ranks with its weaker endpoint under the graph scores (it is only as relevant as the less
relevant node it joins); under BM25 an edge has its own text, endpoints included, and its own score.

`ends`: any ranked ordering (`Ordering.ranked`) has a variant named `<name>+ends` that places the
best-ranked units at both ends (LangChain's LongContextReorder, "lost in the middle"): ranks 1, 3,
5, ... from the front, then ..., 4, 2 at the back, for nodes and for edges separately, so in
nodes-then-edges both sections start and end with their best. The record policy cuts from the back,
so under a tight budget `+ends` loses the second-best half first: that cost is what it measures.
Variants are resolved by name (`ORDERINGS.get("question_bm25+ends")`) and not listed among
`ORDERINGS.names()`, so loops over every ordering do not double.
"""

from __future__ import annotations

import random
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from core.errors import ParameterError
from core.formats.base import Format, nodes_then_edges
from core.graph.hops import check_direction, neighbours
from core.graph.model import Graph
from core.graph.units import Unit
from core.queries.model import label_of
from core.retrieval.relevance import bm25_scores, centrality, personalized_pagerank

Layout = Literal["nodes_then_edges", "interleaved"]
LAYOUTS: tuple[Layout, ...] = ("nodes_then_edges", "interleaved")


@dataclass(frozen=True)
class OrderingInputs:
    """What an ordering may look at besides the graph: seeds, the query's evidence, a shuffle seed."""

    seeds: tuple[str, ...] = ()
    evidence: frozenset[str] = field(default_factory=frozenset)
    shuffle_seed: int = 0
    direction: str = "both"
    question: str = ""  # the question text, for orderings that match it (question_bm25)


@dataclass(frozen=True)
class Ordering:
    """A named ranking of units. `oracle` marks an ordering that uses the answer (an upper bound)."""

    name: str
    title: str
    description: str
    sequence: Callable[[Graph, Sequence[Unit], OrderingInputs], list[Unit]] = field(repr=False)
    oracle: bool = False
    uses_seeds: bool = False
    uses_evidence: bool = False
    uses_shuffle_seed: bool = False
    uses_question: bool = False
    ranked: bool = False  # a ranking by relevance, best first: it has a `+ends` variant

    @property
    def per_query(self) -> bool:
        """Its order depends on the query (its evidence or its question), so it is built per query."""
        return self.uses_evidence or self.uses_question


def rendering_seeds(format_uses_hops: bool, ordering: Ordering, seeds: Sequence[str]) -> tuple[str, ...]:
    """The seeds a rendering depends on: none unless the ordering ranks by them or the format shows hop levels,
    so changing seeds under, say, canonical order reuses the rendering and its token counts."""
    return tuple(seeds) if ordering.uses_seeds or format_uses_hops else ()


def inputs_for(ordering: Ordering, seeds: Sequence[str] = (), *, evidence: frozenset[str] = frozenset(),
               question: str = "", shuffle_seed: int = 0, direction: str = "both") -> OrderingInputs:
    """The inputs an ordering looks at, and only those (so equal inputs mean an equal order)."""
    return OrderingInputs(tuple(seeds), evidence if ordering.uses_evidence else frozenset(), shuffle_seed, direction,
                          question if ordering.uses_question else "")


def _kind(unit: Unit) -> int:
    return 0 if unit.is_node else 1


def _canonical(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
    return sorted(units, key=lambda unit: (_kind(unit), unit.key))


def _shuffled(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
    ranked = _canonical(graph, units, inputs)  # independent of the order the units came in
    random.Random(inputs.shuffle_seed).shuffle(ranked)
    return ranked


def _evidence_first(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
    evidence = inputs.evidence
    return sorted(units, key=lambda unit: (unit.key not in evidence, _kind(unit), unit.key))


def _require_seeds(inputs: OrderingInputs, name: str) -> None:
    if not inputs.seeds:
        raise ParameterError(f"the {name} ordering needs seeds", "ordering inputs",
                             "pick seed nodes by id or name them in a question")


def _bfs_from_seeds(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
    _require_seeds(inputs, "bfs_from_seeds")
    adjacency = neighbours(graph, check_direction(inputs.direction))
    rank: dict[str, int] = {}
    queue: deque[str] = deque()
    for seed in inputs.seeds:
        if seed not in rank:
            rank[seed] = len(rank)
            queue.append(seed)
    while queue:
        for neighbour in adjacency.get(queue.popleft(), ()):
            if neighbour not in rank:
                rank[neighbour] = len(rank)
                queue.append(neighbour)
    for node in graph.nodes:  # the unreached rest, by id
        rank.setdefault(node.id, len(rank))

    def position(unit: Unit) -> int:
        if unit.is_node:
            return rank[unit.node.id]
        return max(rank[unit.edge.source], rank[unit.edge.target])

    return sorted(units, key=lambda unit: (position(unit), _kind(unit), unit.key))


def _hop_tiers(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
    _require_seeds(inputs, "hop_tiers")
    return sorted(units, key=lambda unit: (unit.hop, _kind(unit), unit.key))


def _by_node_scores(units: Sequence[Unit], score: Callable[[str], tuple]) -> list[Unit]:
    """Best first: a node by its score, an edge by its weaker endpoint's; ties nodes first, then by key."""
    def rank(unit: Unit) -> tuple:
        if unit.is_node:
            return score(unit.node.id)
        return max(score(unit.edge.source), score(unit.edge.target))  # larger rank tuple = weaker
    return sorted(units, key=lambda unit: (rank(unit), _kind(unit), unit.key))


def _personalized_pagerank(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
    _require_seeds(inputs, "personalized_pagerank")
    scores = personalized_pagerank(graph, inputs.seeds, inputs.direction)
    # Rounded so that float noise in the last digits never decides an order; ties go by key.
    return _by_node_scores(units, lambda node_id: (-round(scores.get(node_id, 0.0), 12),))


def _centrality(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
    figures = centrality(graph)
    return _by_node_scores(units, lambda node_id: tuple(-value for value in figures.get(node_id, (0, 0))))


def _question_bm25(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
    question = inputs.question.strip() or " ".join(
        f"{seed} {label_of(graph, seed)}" for seed in inputs.seeds)  # keywords: the seeds' names
    if not question:
        raise ParameterError("the question_bm25 ordering needs the question text or seeds", "ordering inputs",
                             "pass the query's question (OrderingInputs.question) or pick seeds")
    canonical = _canonical(graph, units, inputs)  # scores do not depend on the order units came in
    scores = bm25_scores(graph, canonical, question)
    return sorted(canonical, key=lambda unit: (-round(scores[unit.key], 6), _kind(unit), unit.key))


def ends_arranged(ranked: Sequence[Unit]) -> list[Unit]:
    """LongContextReorder: ranks 1, 3, 5, ... from the front, then ..., 6, 4, 2: the best at both ends."""
    return list(ranked[0::2]) + list(ranked[1::2])[::-1]


def with_ends(ordering: Ordering) -> Ordering:
    """The `+ends` variant of a ranked ordering: nodes and edges each placed best-at-both-ends."""
    if not ordering.ranked:
        raise ParameterError(f"the {ordering.name} ordering is not a ranking, so it has no {ENDS} variant",
                             "ordering", f"use {ENDS} with one of: {', '.join(o.name for o in ORDERING_LIST if o.ranked)}")

    def sequence(graph: Graph, units: Sequence[Unit], inputs: OrderingInputs) -> list[Unit]:
        ranked = ordering.sequence(graph, units, inputs)
        return (ends_arranged([unit for unit in ranked if unit.is_node])
                + ends_arranged([unit for unit in ranked if not unit.is_node]))

    return replace(ordering, name=ordering.name + ENDS, title=ordering.title + ", best at both ends",
                   description=ordering.description + "; then the best-ranked placed at both ends, the weakest in "
                   "the middle (LongContextReorder)", sequence=sequence, ranked=False)


ENDS = "+ends"


CANONICAL = Ordering("canonical", "Canonical", "nodes by key, then edges by key", _canonical)
SHUFFLED = Ordering("shuffled", "Shuffled", "a random permutation drawn with the recorded shuffle seed",
                    _shuffled, uses_shuffle_seed=True)
EVIDENCE_FIRST = Ordering("evidence_first", "Evidence first (oracle)",
                          "the query's evidence units first, then the rest canonically; an oracle upper "
                          "bound, since it is built from the answer", _evidence_first, oracle=True,
                          uses_evidence=True, ranked=True)
BFS_FROM_SEEDS = Ordering("bfs_from_seeds", "Breadth-first from the seeds",
                          "nodes in breadth-first discovery order from the seeds, each edge with its "
                          "later-discovered endpoint; unreached nodes last, by key", _bfs_from_seeds,
                          uses_seeds=True, ranked=True)
HOP_TIERS = Ordering("hop_tiers", "Hop tiers",
                     "by hop level from the seeds, nodes before edges within a tier, then by key "
                     "(seed-anchored rendering)", _hop_tiers, uses_seeds=True, ranked=True)
PERSONALIZED_PAGERANK = Ordering(
    "personalized_pagerank", "Personalized PageRank from the seeds",
    "by PageRank with restarts at the seeds (HippoRAG-style retrieval), best first; each edge with its weaker "
    "endpoint", _personalized_pagerank, uses_seeds=True, ranked=True)
CENTRALITY = Ordering(
    "centrality", "Centrality (k-core, then degree)",
    "by k-core number, then degree, most central first, without looking at the question; each edge with its "
    "weaker endpoint", _centrality, ranked=True)
QUESTION_BM25 = Ordering(
    "question_bm25", "BM25 against the question",
    "by BM25 of each unit's ids, labels, types and relation against the question text, best first",
    _question_bm25, uses_question=True, ranked=True)

ORDERING_LIST: tuple[Ordering, ...] = (CANONICAL, SHUFFLED, EVIDENCE_FIRST, BFS_FROM_SEEDS, HOP_TIERS,
                                       PERSONALIZED_PAGERANK, CENTRALITY, QUESTION_BM25)


def check_layout(layout: str) -> Layout:
    if layout not in LAYOUTS:
        raise ParameterError(f"unknown layout {layout!r}", "layout", f"use one of: {', '.join(LAYOUTS)}")
    return layout


def layouts_for(format_: Format) -> tuple[Layout, ...]:
    """The layouts a format can show: both, or only nodes_then_edges when its sections are separate."""
    return LAYOUTS if format_.interleaves else ("nodes_then_edges",)


def interleaved(sequence: Sequence[Unit]) -> list[Unit]:
    """Each node followed by the edges whose later endpoint (in first-mention order) it is."""
    node_order: dict[str, int] = {}
    for unit in sequence:
        for node_id in ((unit.node.id,) if unit.is_node else (unit.edge.source, unit.edge.target)):
            node_order.setdefault(node_id, len(node_order))
    node_units = {unit.node.id: unit for unit in sequence if unit.is_node}
    attached: dict[int, list[Unit]] = defaultdict(list)
    for unit in sequence:
        if not unit.is_node:
            attached[max(node_order[unit.edge.source], node_order[unit.edge.target])].append(unit)
    arranged: list[Unit] = []
    for node_id, position in node_order.items():
        if node_id in node_units:
            arranged.append(node_units[node_id])
        arranged.extend(attached.get(position, ()))
    return arranged


def order_units(graph: Graph, units: Sequence[Unit], ordering: Ordering, layout: str = "nodes_then_edges",
                inputs: OrderingInputs = OrderingInputs()) -> tuple[Unit, ...]:
    """The units ranked by `ordering` and arranged by `layout`, ready for `Format.render`."""
    sequence = ordering.sequence(graph, units, inputs)
    if check_layout(layout) == "interleaved":
        return tuple(interleaved(sequence))
    return tuple(nodes_then_edges(sequence))
