"""The connected policy's choice: the seeds joined by a Steiner tree, grown by prize per token, shrunk to fit.

A prize-collecting tree built in three steps over the rendered nodes and edges (edges undirected):
1. the seeds (hop 0; the best-ranked node when there are none) joined by a Steiner tree, per connected
   component holding a seed (networkx's Mehlhorn 2-approximation, an edge weighing its tokens plus its
   far node's), so the tree holds every seed;
2. grown while it fits: the frontier node (joined to the tree by one edge) with the most relevance per
   token (its own and its edge's) joins it, as long as the estimated total fits the room; then the
   edges between kept nodes that the tree left out, by relevance per token, while they fit;
3. shrunk while the exact count is over: those extra edges first, then the leaf (not a seed) with the
   least relevance per token.
Every step keeps one tree per seed component, so the kept units are connected and hold the seeds.

Why not `pcst_fast` (the solver G-Retriever uses): its 1.0.10 wheel, the newest on the registry, returns
wrong vertices under numpy 2 (a path 0-1-2 with prizes 1, 1, 1 and edge costs 0.1 gives vertices
[0 0 0] and edges [0 0] under numpy 2.3.5, the right [0 1 2] and [0 1] under numpy 1.26), and the
project runs numpy 2.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from core.budget.candidates import Candidates


@dataclass
class ConnectedChoice:
    """The tree's kept units, and how to drop its weakest leaves (mutable: it shrinks while the cut is fitted)."""

    nodes: dict[str, str]  # node id -> unit key, kept
    edges: dict[str, tuple[str, str]]  # edge unit key -> (source, target), kept
    seeds: frozenset[str]  # node ids
    prize: dict[str, float]
    cost: dict[str, float] = field(default_factory=dict)  # unit key -> estimated tokens
    extra: dict[str, float] = field(default_factory=dict)  # edges between kept nodes beyond the tree -> relevance

    @property
    def keys(self) -> list[str]:
        return [*self.nodes.values(), *self.edges, *self.extra]

    def estimate(self) -> float:
        return sum(self.cost.get(key, 1.0) for key in self.keys)

    def _leaves(self) -> list[str]:
        degree = dict.fromkeys(self.nodes, 0)
        for source, target in self.edges.values():
            degree[source] += 1
            degree[target] += 1
        return [node for node, count in degree.items() if count <= 1 and node not in self.seeds]

    def drop_leaf(self) -> bool:
        """Drop an edge beyond the tree (the least relevance per token), else the leaf (not a seed) with the least
        prize per token, with its edge; False when there is neither."""
        if self.extra:
            edge = min(self.extra, key=lambda key: (self.extra[key] / max(self.cost.get(key, 1.0), 1.0), key))
            del self.extra[edge]
            return True
        leaves = self._leaves()
        if not leaves:
            return False

        def weight(node: str) -> tuple[float, str]:
            key = self.nodes[node]
            tokens = self.cost.get(key, 1.0) + sum(self.cost.get(edge, 1.0) for edge, ends in self.edges.items()
                                                   if node in ends)
            return (self.prize[node] / max(tokens, 1.0), node)

        leaf = min(leaves, key=weight)
        del self.nodes[leaf]
        for edge in [edge for edge, ends in self.edges.items() if leaf in ends]:
            del self.edges[edge]
        return True

    def shrink(self, keys: Sequence[str], excess: float) -> list[str]:
        """Drop leaves until their estimated tokens cover `excess` (at least one); [] when nothing can go."""
        target = self.estimate() - max(excess, 1)
        if not self.drop_leaf():
            return []
        while self.estimate() > target and self.drop_leaf():
            pass
        return self.keys


def connected_choice(found: Candidates, room: int) -> ConnectedChoice | None:
    """The seeds' tree grown by relevance per token while its estimated tokens fit `room`; None without nodes."""
    nodes = {unit.node.id: unit for unit in found.units if unit.is_node}
    if not nodes or room <= 0:
        return None
    cost = dict(found.unit_cost)
    edges = [unit for unit in found.units if not unit.is_node and unit.edge.source in nodes
             and unit.edge.target in nodes and unit.edge.source != unit.edge.target]
    seeds = [node for node, unit in nodes.items() if unit.hop == 0] or [next(iter(nodes))]
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for unit in edges:  # of parallel edges the cheapest joins the tree
        source, target = unit.edge.source, unit.edge.target
        weight = cost.get(unit.key, 1.0) + (cost.get(nodes[source].key, 1.0) + cost.get(nodes[target].key, 1.0)) / 2
        if not graph.has_edge(source, target) or graph[source][target]["weight"] > weight:
            graph.add_edge(source, target, weight=weight, key=unit.key)
    prize = {node: found.relevance[unit.key] for node, unit in nodes.items()}
    choice = ConnectedChoice({seed: nodes[seed].key for seed in seeds}, {}, frozenset(seeds), prize, cost)
    for component in nx.connected_components(graph):
        terminals = [seed for seed in seeds if seed in component]
        if len(terminals) > 1:
            tree = nx.algorithms.approximation.steiner_tree(graph.subgraph(component), terminals, weight="weight")
            for source, target in tree.edges:
                _join(choice, nodes, graph, source, target)
    _grow(choice, nodes, graph, room)
    _close(choice, edges, found.relevance, room)
    while choice.estimate() > room and choice.drop_leaf():
        pass
    return choice


def _close(choice: ConnectedChoice, edges: list, relevance: dict[str, float], room: int) -> None:
    """Add the edges between kept nodes that the tree left out, by relevance per token, while they fit."""
    used = choice.estimate()
    inside = [unit for unit in edges if unit.key not in choice.edges and unit.edge.source in choice.nodes
              and unit.edge.target in choice.nodes]
    for unit in sorted(inside, key=lambda unit: (-relevance[unit.key] / max(choice.cost.get(unit.key, 1.0), 1.0),
                                                 unit.key)):
        tokens = choice.cost.get(unit.key, 1.0)
        if used + tokens <= room:
            choice.extra[unit.key] = relevance[unit.key]
            used += tokens


def _join(choice: ConnectedChoice, nodes: dict, graph: nx.Graph, source: str, target: str) -> None:
    choice.nodes.setdefault(source, nodes[source].key)
    choice.nodes.setdefault(target, nodes[target].key)
    choice.edges[graph[source][target]["key"]] = (source, target)


def _grow(choice: ConnectedChoice, nodes: dict, graph: nx.Graph, room: int) -> None:
    """Join the frontier node with the most relevance per token while the estimate fits (a tree stays a tree:
    each node joins by one edge)."""
    used = choice.estimate()
    frontier: list[tuple[float, str, str, str]] = []

    def offer(node: str) -> None:
        for neighbour in graph.neighbors(node):
            if neighbour not in choice.nodes:
                tokens = choice.cost.get(nodes[neighbour].key, 1.0) + choice.cost.get(graph[node][neighbour]["key"], 1.0)
                heapq.heappush(frontier, (-choice.prize[neighbour] / max(tokens, 1.0), neighbour, node, ""))

    for node in list(choice.nodes):
        offer(node)
    while frontier:
        _, node, parent, _ = heapq.heappop(frontier)
        if node in choice.nodes:
            continue
        tokens = choice.cost.get(nodes[node].key, 1.0) + choice.cost.get(graph[parent][node]["key"], 1.0)
        if used + tokens > room:
            continue  # a cheaper frontier node may still fit
        _join(choice, nodes, graph, parent, node)
        used += tokens
        offer(node)
