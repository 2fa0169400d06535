"""Which part of a graph a picture can show (all of it up to a cap, else the seeds' nearest nodes) and where."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx

from core.errors import ParameterError
from core.graph.model import Edge, Graph
from core.graph.units import UNREACHABLE, edge_keys

VIEW_NODE_CAP = 300
PHYSICS_NODE_LIMIT = 150  # above this, a browser takes too long to settle a force layout


@dataclass(frozen=True)
class GraphView:
    """The nodes and edges to draw. `complete` is False when the graph was larger than the cap."""

    node_ids: tuple[str, ...]
    edges: tuple[tuple[str, Edge], ...]  # (unit key, edge), both endpoints shown
    total_nodes: int
    total_edges: int
    full_radius: float  # every node within this many hops of the seeds is shown (inf: all nodes)
    node_hops: tuple[float, ...] = ()  # each shown node's hop level from the seeds, in node_ids order

    @property
    def complete(self) -> bool:
        return len(self.node_ids) == self.total_nodes

    @property
    def needs_fixed_layout(self) -> bool:
        return len(self.node_ids) > PHYSICS_NODE_LIMIT


def select_view(graph: Graph, hops: Mapping[str, float], cap: int = VIEW_NODE_CAP) -> GraphView:
    """The whole graph if it has at most `cap` nodes; else the `cap` nodes nearest the seeds.

    Nodes are taken by (hop level, id), so whole hop tiers come first and a tier that does not fit
    is cut deterministically; nodes the seeds do not reach come last, by id.
    """
    if cap < 1:
        raise ParameterError(f"the view cap is {cap}", "cap", "show at least one node")
    ordered = sorted(graph.nodes, key=lambda node: (hops.get(node.id, UNREACHABLE), node.id))
    shown = [node.id for node in ordered[:cap]]
    if len(ordered) <= cap:
        full_radius = math.inf
    else:
        first_left_out = hops.get(ordered[cap].id, UNREACHABLE)
        reached = [hops[node_id] for node_id in shown if hops.get(node_id, UNREACHABLE) != UNREACHABLE]
        full_radius = first_left_out - 1 if first_left_out != UNREACHABLE else max(reached, default=-1)
    inside = set(shown)
    edges = tuple((key, edge) for key, edge in edge_keys(graph)
                  if edge.source in inside and edge.target in inside)
    return GraphView(tuple(shown), edges, len(graph.nodes), len(graph.edges), full_radius,
                     tuple(float(hops.get(node_id, UNREACHABLE)) for node_id in shown))




def layout_positions(view: GraphView, seed: int = 7, size: float = 1000.0) -> dict[str, tuple[float, float]]:
    """Deterministic 2-D positions in pixels, centred on 0: rings by hop tier around the seeds when the view
    knows its hops and has seeds (a force layout of hundreds of nodes is a hairball), else a seeded force
    layout about `size` across."""
    if not view.node_ids:
        return {}
    if view.node_hops and 0.0 in view.node_hops:
        return ring_positions(view, size)
    picture = nx.Graph()
    picture.add_nodes_from(view.node_ids)
    picture.add_edges_from((edge.source, edge.target) for _, edge in view.edges if edge.source != edge.target)
    positions = nx.spring_layout(picture, seed=seed, scale=size / 2, iterations=60)
    return {node_id: (round(float(x), 1), round(float(y), 1)) for node_id, (x, y) in positions.items()}


def graph_positions(graph: Graph, seed: int = 7, size: float = 1000.0) -> dict[str, tuple[float, float]]:
    """Positions of every node of a graph small enough to draw whole, from a seeded force layout of the whole
    graph: the same graph always gets the same picture, whatever the seeds, budget or format, so a change of
    budget only recolours it."""
    picture = nx.Graph()
    picture.add_nodes_from(node.id for node in graph.nodes)
    picture.add_edges_from((edge.source, edge.target) for edge in graph.edges if edge.source != edge.target)
    if not picture:
        return {}
    # Twice networkx's default spacing (k = 1/sqrt(n)): labels under the nodes need room between them.
    positions = nx.spring_layout(picture, seed=seed, scale=size / 2, iterations=100, k=2 / math.sqrt(len(picture)))
    return {node_id: (round(float(x), 1), round(float(y), 1)) for node_id, (x, y) in positions.items()}


def ring_positions(view: GraphView, size: float = 1000.0) -> dict[str, tuple[float, float]]:
    """The seeds in the centre, each hop tier on its own ring, evenly spaced out to `size` across (nodes the
    seeds do not reach on the outermost): the near rings hold few nodes, so the seeds' neighbourhood stays
    legible however crowded the far ring is. A node sits near the mean angle of its neighbours on the inner
    ring, so edges between rings are short and seldom cross."""
    tiers: dict[float, list[str]] = {}
    for node_id, hop in zip(view.node_ids, view.node_hops, strict=True):
        tiers.setdefault(hop, []).append(node_id)
    neighbours: dict[str, set[str]] = {node_id: set() for node_id in view.node_ids}
    for _, edge in view.edges:
        neighbours[edge.source].add(edge.target)
        neighbours[edge.target].add(edge.source)
    angles: dict[str, float] = {}
    positions: dict[str, tuple[float, float]] = {}
    for ring, hop in enumerate(sorted(tiers)):
        members = tiers[hop]
        if ring:
            def inner_angle(node_id: str) -> float:
                placed = [angles[other] for other in neighbours[node_id] if other in angles]
                return math.atan2(sum(map(math.sin, placed)), sum(map(math.cos, placed))) if placed else math.pi
            members = sorted(members, key=lambda node_id: (inner_angle(node_id), node_id))
        step = size / 2 / len(tiers)
        radius = 0.0 if ring == 0 and len(members) == 1 else step * (ring + (0.5 if ring == 0 else 0))
        for index, node_id in enumerate(members):
            angle = 2 * math.pi * index / len(members) - math.pi
            angles[node_id] = angle
            positions[node_id] = (round(radius * math.cos(angle), 1), round(radius * math.sin(angle), 1))
    return positions
