"""Which part of a graph a picture can show (all of it up to a cap, else the seeds' nearest nodes) and where."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx

from core.errors import ParameterError
from core.graph import Edge, Graph
from core.units import UNREACHABLE, edge_keys

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
    return GraphView(tuple(shown), edges, len(graph.nodes), len(graph.edges), full_radius)


def layout_positions(view: GraphView, seed: int = 7, size: float = 1000.0) -> dict[str, tuple[float, float]]:
    """Deterministic 2-D positions (a seeded force layout) in pixels, centred on 0, about `size` across."""
    if not view.node_ids:
        return {}
    picture = nx.Graph()
    picture.add_nodes_from(view.node_ids)
    picture.add_edges_from((edge.source, edge.target) for _, edge in view.edges if edge.source != edge.target)
    positions = nx.spring_layout(picture, seed=seed, scale=size / 2, iterations=60)
    return {node_id: (round(float(x), 1), round(float(y), 1)) for node_id, (x, y) in positions.items()}
