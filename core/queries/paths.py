"""General graph queries: the shortest directed path between two seeds, typed neighbours of a seed."""

from __future__ import annotations

from core.graph.hops import check_direction
from core.graph.model import Graph
from core.graph.units import node_key
from core.queries import traversal
from core.queries.model import QueryTemplate, Solution

ANY_TYPE = "any"


def shortest_path(graph: Graph, source: str, target: str, relation: str | None = None) -> Solution:
    """Node ids along the shortest directed path from source to target ([] when there is none).

    `relation` limits the walk to one edge type; None follows every edge. Ties go to the smallest
    sequence of (node id, edge key) steps, and any equally short path answers as well
    (`Solution.chain_steps`). The evidence is the path's edges (they name the nodes).
    """
    found = traversal.shortest_path_and_ties(graph, source, target, relation)
    if found is None:
        return Solution([], frozenset())
    nodes, keys, ties = found
    return Solution(nodes, frozenset(keys), ties)


def typed_neighbours(graph: Graph, node: str, relation: str, direction: str = "out",
                     node_type: str = ANY_TYPE) -> Solution:
    """Sorted ids of the nodes one `relation` edge away from `node` (out, in or both ways).

    With a `node_type` other than "any", only neighbours of that type count, and their node records
    become evidence (a truncated context that lost them cannot tell their type).
    """
    wanted_type = None if node_type == ANY_TYPE else node_type
    direction = check_direction(direction)
    nodes = graph.node_by_id  # looked up per neighbour, not built per solve
    found: set[str] = set()
    evidence: set[str] = set()
    for reverse, wanted in ((False, "out"), (True, "in")):
        if direction not in (wanted, "both"):
            continue
        for neighbour, key in traversal.adjacency(graph, relation, reverse).get(node, ()):
            if wanted_type is None or getattr(nodes.get(neighbour), "type", None) == wanted_type:
                found.add(neighbour)
                evidence.add(key)
                if wanted_type is not None:
                    evidence.add(node_key(neighbour))
    return Solution(sorted(found), frozenset(evidence))


SHORTEST_PATH = QueryTemplate(
    "shortest_path", "Shortest directed path", shortest_path,
    "What is the shortest directed path from {source} to {target}?", ("source", "target", "relation"),
    node_parameters=("source", "target"), relation_parameters=("relation",))
TYPED_NEIGHBOURS = QueryTemplate(
    "typed_neighbours", "Typed neighbours", typed_neighbours,
    "Which nodes of type {node_type} are one {relation} edge away from {node} (direction: {direction})?",
    ("node", "relation", "direction", "node_type"), node_parameters=("node",),
    relation_parameters=("relation",), type_parameters=("node_type",))
