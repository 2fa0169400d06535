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
"""

from __future__ import annotations

import random
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import Callable, Literal, Sequence

from core.errors import ParameterError
from core.formats.base import Format, nodes_then_edges
from core.graph import Graph
from core.hops import check_direction, neighbours
from core.units import Unit

Layout = Literal["nodes_then_edges", "interleaved"]
LAYOUTS: tuple[Layout, ...] = ("nodes_then_edges", "interleaved")


@dataclass(frozen=True)
class OrderingInputs:
    """What an ordering may look at besides the graph: seeds, the query's evidence, a shuffle seed."""

    seeds: tuple[str, ...] = ()
    evidence: frozenset[str] = field(default_factory=frozenset)
    shuffle_seed: int = 0
    direction: str = "both"


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


CANONICAL = Ordering("canonical", "Canonical", "nodes by key, then edges by key", _canonical)
SHUFFLED = Ordering("shuffled", "Shuffled", "a random permutation drawn with the recorded shuffle seed",
                    _shuffled, uses_shuffle_seed=True)
EVIDENCE_FIRST = Ordering("evidence_first", "Evidence first (oracle)",
                          "the query's evidence units first, then the rest canonically; an oracle upper "
                          "bound, since it is built from the answer", _evidence_first, oracle=True,
                          uses_evidence=True)
BFS_FROM_SEEDS = Ordering("bfs_from_seeds", "Breadth-first from the seeds",
                          "nodes in breadth-first discovery order from the seeds, each edge with its "
                          "later-discovered endpoint; unreached nodes last, by key", _bfs_from_seeds,
                          uses_seeds=True)
HOP_TIERS = Ordering("hop_tiers", "Hop tiers",
                     "by hop level from the seeds, nodes before edges within a tier, then by key "
                     "(seed-anchored rendering)", _hop_tiers, uses_seeds=True)

ORDERING_LIST: tuple[Ordering, ...] = (CANONICAL, SHUFFLED, EVIDENCE_FIRST, BFS_FROM_SEEDS, HOP_TIERS)


def check_layout(layout: str) -> Layout:
    if layout not in LAYOUTS:
        raise ParameterError(f"unknown layout {layout!r}", "layout", f"use one of: {', '.join(LAYOUTS)}")
    return layout  # type: ignore[return-value]


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
