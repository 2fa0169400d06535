"""Traversal helpers shared by the solvers: typed adjacency, bounded BFS, a canonical shortest path."""

from __future__ import annotations

from collections import defaultdict, deque

from core.graph.derived import derived
from core.graph.kept import NEVER, KeptGraph
from core.graph.model import Edge, Graph
from core.graph.units import edge_keys


def _tables(graph: Graph) -> dict:
    """Per-graph derived tables, filled as the solvers need them (a sweep solves many queries on each graph)."""
    return derived(graph, "traversal tables", dict)


def keyed_edges(graph: Graph) -> list[tuple[str, Edge]]:
    """(unit key, edge) for every edge in canonical order, computed once per graph."""
    if isinstance(graph, KeptGraph):
        return graph.keyed_edges()
    tables = _tables(graph)
    if "keys" not in tables:
        tables["keys"] = list(edge_keys(graph))
    return tables["keys"]


def adjacency(graph: Graph, relation: str | None, reverse: bool) -> dict[str, list[tuple[str, str]]]:
    """node -> [(neighbour, edge key)] over one relation (any when None), in canonical edge order.

    The result is shared between callers: read it, do not change it. On a KeptGraph (a record
    prefix of a rendering) it is the full graph's adjacency, filtered as it is read.
    """
    if isinstance(graph, KeptGraph):
        return _KeptAdjacency(adjacency(graph.full, relation, reverse), graph, relation, reverse)
    tables = _tables(graph)
    found = tables.get(("adjacency", relation, reverse))
    if found is None:
        found = defaultdict(list)
        for key, edge in keyed_edges(graph):
            if relation is None or edge.relation == relation:
                if reverse:
                    found[edge.target].append((edge.source, key))
                else:
                    found[edge.source].append((edge.target, key))
        found = tables[("adjacency", relation, reverse)] = dict(found)
    return found


class _KeptAdjacency:
    """`adjacency` of a KeptGraph: a solver reads only the nodes it visits, so filter on reading."""

    def __init__(self, full: dict[str, list[tuple[str, str]]], kept: KeptGraph, relation: str | None = None,
                 reverse: bool = False) -> None:
        self._full = full
        # the full graph's steps are its own edges: kept when their record is among the first `records`
        self._record_of, self._records = kept.positions.record_of_key.get, kept.records
        # a raw cut's partial record may add edges: merged into each list in canonical edge order
        self._extra = kept.extra_steps(relation, reverse) if kept.extra_edges else None
        self._edge_of = kept.edge_of_key

    def get(self, node: str, default=None):
        steps = self._full.get(node)
        extra = self._extra.get(node) if self._extra else None
        if steps is None and extra is None:
            return default
        record_of, records = self._record_of, self._records
        found = [step for step in steps if record_of(step[1], NEVER) < records] if steps is not None else []
        if extra is None:
            return found
        edge_of = self._edge_of
        return sorted(found + extra, key=lambda step: edge_of(step[1]).sort_key)  # stable: equal edges are one edge


def breadth_first(graph: Graph, start: str, relation: str, reverse: bool,
                  max_hops: float) -> tuple[list[str], list[str]]:
    """Nodes reached from `start` within max_hops (discovery order) and the edges that reached them."""
    adjacent = adjacency(graph, relation, reverse)
    seen = {start}
    queue = deque([(start, 0)])
    reached: list[str] = []
    tree_edges: list[str] = []
    while queue:
        node, distance = queue.popleft()
        if distance == max_hops:
            continue
        for neighbour, key in adjacent.get(node, ()):
            if neighbour not in seen:
                seen.add(neighbour)
                reached.append(neighbour)
                tree_edges.append(key)
                queue.append((neighbour, distance + 1))
    return reached, tree_edges


def shortest_path(graph: Graph, source: str, target: str, relation: str | None = None
                  ) -> tuple[list[str], list[str]] | None:
    """The directed shortest path from source to target as (node ids, edge keys), or None.

    Among equally short paths the one with the smallest sequence of (node id, edge key) steps is
    chosen. That choice is stable under cutting: in any subgraph that still holds this path, it is
    still the one chosen, so a truncated context either answers exactly or visibly differs.
    """
    found = shortest_path_and_ties(graph, source, target, relation)
    return None if found is None else (found[0], found[1])


def shortest_path_and_ties(graph: Graph, source: str, target: str, relation: str | None = None
                           ) -> tuple[list[str], list[str], frozenset[tuple[str, str]]] | None:
    """`shortest_path`, with the steps (node, next node) of every path of the same length (its ties)."""
    if source not in graph.node_by_id or target not in graph.node_by_id:
        return None
    backwards = adjacency(graph, relation, reverse=True)
    remaining = {target: 0}  # steps still needed to reach the target
    queue = deque([target])
    while queue and source not in remaining:
        node = queue.popleft()
        for previous, _ in backwards.get(node, ()):
            if previous not in remaining:
                remaining[previous] = remaining[node] + 1
                queue.append(previous)
    if source not in remaining:
        return None
    forwards = adjacency(graph, relation, reverse=False)

    def onward(node: str) -> list[tuple[str, str]]:  # the steps from `node` that stay on a shortest path
        return [(neighbour, key) for neighbour, key in forwards.get(node, ())
                if remaining.get(neighbour) == remaining[node] - 1]
    nodes, keys = [source], []
    while nodes[-1] != target:
        neighbour, key = min(onward(nodes[-1]))
        nodes.append(neighbour)
        keys.append(key)
    ties: set[tuple[str, str]] = set()
    level = {source}
    while level:  # every node on some shortest path is `remaining`-levelled: walk them level by level
        ties.update((node, neighbour) for node in level for neighbour, _ in onward(node))
        level = {neighbour for node in level for neighbour, _ in onward(node)}
    return nodes, keys, frozenset(ties)
