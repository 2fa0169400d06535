"""Hop levels from a seed set: breadth-first distances over out-, in- or both-way edges, as unit hops.

Seed-anchored rendering (seed document 002): a node unit's hop level is its distance from the
nearest seed, an edge unit's is the larger of its endpoints' distances, and a unit the seeds cannot
reach has hop level infinity. `candidate_units(units, k)` is U_k(S), the units within k hops.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from typing import Literal

from core.errors import ParameterError
from core.graph.model import Graph
from core.graph.units import Unit, graph_units

Direction = Literal["out", "in", "both"]
DIRECTIONS: tuple[Direction, ...] = ("out", "in", "both")


def check_direction(direction: str) -> Direction:
    if direction not in DIRECTIONS:
        raise ParameterError(f"unknown direction {direction!r}", "direction",
                             f"use one of: {', '.join(DIRECTIONS)}")
    return direction


def neighbours(graph: Graph, direction: Direction) -> dict[str, list[str]]:
    """node id -> adjacent node ids in canonical edge order, following edges the given way."""
    adjacency: dict[str, list[str]] = defaultdict(list)
    for edge in graph.edges:
        if direction in ("out", "both"):
            adjacency[edge.source].append(edge.target)
        if direction in ("in", "both"):
            adjacency[edge.target].append(edge.source)
    return adjacency


def hop_distances(graph: Graph, seeds: Iterable[str], direction: str = "both",
                  max_hops: int | None = None) -> dict[str, int]:
    """Distance of every node the seeds reach (seeds at 0), optionally only up to `max_hops`.

    Nodes missing from the result are unreachable (hop level infinity).
    """
    direction_ = check_direction(direction)
    seeds = tuple(seeds)
    if not seeds:
        return {}  # nothing is reached, and the adjacency of a large graph takes a second to build
    adjacency = neighbours(graph, direction_)
    distances: dict[str, int] = {}
    queue: deque[str] = deque()
    for seed in seeds:
        if seed not in graph.node_by_id:
            raise ParameterError(f"seed {seed!r} is not a node of the graph", "seeds", "pick seeds from the graph")
        if seed not in distances:
            distances[seed] = 0
            queue.append(seed)
    while queue:
        node = queue.popleft()
        distance = distances[node] + 1
        if max_hops is not None and distance > max_hops:
            continue
        for neighbour in adjacency.get(node, ()):
            if neighbour not in distances:
                distances[neighbour] = distance
                queue.append(neighbour)
    return distances


def hop_units(graph: Graph, seeds: Iterable[str], direction: str = "both") -> tuple[Unit, ...]:
    """Every unit of the graph (canonical order) with its hop level from the seeds."""
    return graph_units(graph, hop_distances(graph, seeds, direction))


def candidate_units(units: Sequence[Unit], k: float) -> tuple[Unit, ...]:
    """U_k(S): the units whose hop level is at most k (nodes within k hops, edges between them)."""
    return tuple(unit for unit in units if unit.hop <= k)
