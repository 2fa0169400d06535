"""Query templates: deterministic solvers with gold answers and the evidence unit keys an answer needs."""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Callable

from core.graph import Graph
from core.units import edge_keys, node_key

Answer = object  # a JSON-compatible value: sorted lists and dicts of ids


@dataclass(frozen=True)
class Solution:
    answer: Answer
    evidence: frozenset[str]


@dataclass(frozen=True)
class QueryTemplate:
    name: str
    title: str
    solve: Callable[..., Solution]
    question: str  # str.format template over the parameters
    parameters: tuple[str, ...]


@dataclass(frozen=True)
class Query:
    """A template with its parameters bound: `solve(graph)` gives the answer and evidence on that graph."""

    template: QueryTemplate
    arguments: tuple[tuple[str, object], ...]

    @property
    def name(self) -> str:
        return self.template.name

    @property
    def question(self) -> str:
        return self.template.question.format(**dict(self.arguments))

    def solve(self, graph: Graph) -> Solution:
        return self.template.solve(graph, **dict(self.arguments))


def _adjacency(graph: Graph, relation: str, reverse: bool) -> dict[str, list[tuple[str, str]]]:
    """node -> [(neighbour, edge key)] over one relation, in canonical edge order."""
    adjacency: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key, edge in edge_keys(graph):
        if edge.relation == relation:
            if reverse:
                adjacency[edge.target].append((edge.source, key))
            else:
                adjacency[edge.source].append((edge.target, key))
    return adjacency


def _breadth_first(graph: Graph, start: str, relation: str, reverse: bool,
                   max_hops: float) -> tuple[list[str], list[str]]:
    """Nodes reached from `start` within max_hops (discovery order) and the edges that reached them."""
    adjacency = _adjacency(graph, relation, reverse)
    seen = {start}
    queue = deque([(start, 0)])
    reached: list[str] = []
    tree_edges: list[str] = []
    while queue:
        node, distance = queue.popleft()
        if distance == max_hops:
            continue
        for neighbour, key in adjacency[node]:
            if neighbour not in seen:
                seen.add(neighbour)
                reached.append(neighbour)
                tree_edges.append(key)
                queue.append((neighbour, distance + 1))
    return reached, tree_edges


def dependencies_within(graph: Graph, start: str, hops: int = 3, relation: str = "depends_on") -> Solution:
    """Nodes reachable from `start` over `relation` in at most `hops` steps."""
    reached, tree_edges = _breadth_first(graph, start, relation, reverse=False, max_hops=hops)
    return Solution(sorted(reached), frozenset(tree_edges))


def _affected(graph: Graph, failed: str, node_type: str, relation: str) -> tuple[list[str], set[str]]:
    reached, tree_edges = _breadth_first(graph, failed, relation, reverse=True, max_hops=float("inf"))
    types = {node.id: node.type for node in graph.nodes}
    affected = sorted(node_id for node_id in reached if types.get(node_id) == node_type)
    evidence = set(tree_edges) | {node_key(node_id) for node_id in reached}
    return affected, evidence


def impact(graph: Graph, failed: str, node_type: str = "service", relation: str = "depends_on") -> Solution:
    """Nodes of `node_type` that transitively depend on `failed` (reverse traversal of `relation`)."""
    affected, evidence = _affected(graph, failed, node_type, relation)
    return Solution(affected, frozenset(evidence))


def _owners(graph: Graph, nodes: list[str], relation: str) -> tuple[dict[str, list[str]], set[str]]:
    wanted = set(nodes)
    owners: dict[str, set[str]] = {node_id: set() for node_id in wanted}
    evidence: set[str] = set()
    for key, edge in edge_keys(graph):
        if edge.relation == relation and edge.source in wanted:
            owners[edge.source].add(edge.target)
            evidence.add(key)
    return {node_id: sorted(owners[node_id]) for node_id in sorted(wanted)}, evidence


def owners_of(graph: Graph, nodes: tuple[str, ...], relation: str = "owned_by") -> Solution:
    """For each given node, the targets of its `relation` edges."""
    owners, evidence = _owners(graph, list(nodes), relation)
    return Solution(owners, frozenset(evidence))


def owners_of_affected(graph: Graph, failed: str, node_type: str = "service", relation: str = "depends_on",
                       owner_relation: str = "owned_by") -> Solution:
    """For each node affected by the failure (as in `impact`), its owners."""
    affected, evidence = _affected(graph, failed, node_type, relation)
    owners, owner_evidence = _owners(graph, affected, owner_relation)
    return Solution(owners, frozenset(evidence | owner_evidence))


def impact_owners(graph: Graph, failed: str, node_type: str = "service", relation: str = "depends_on",
                  owner_relation: str = "owned_by") -> Solution:
    """The affected nodes of `impact` and, for each, its owners."""
    affected, evidence = _affected(graph, failed, node_type, relation)
    owners, owner_evidence = _owners(graph, affected, owner_relation)
    return Solution({"affected": affected, "owners": owners}, frozenset(evidence | owner_evidence))


DEPENDENCIES = QueryTemplate(
    "dependencies_within", "Dependencies within k hops", dependencies_within,
    "Which nodes does {start} reach over {relation} edges in at most {hops} hops?",
    ("start", "hops", "relation"))
IMPACT = QueryTemplate(
    "impact", "Transitive impact of a failure", impact,
    "If {failed} fails, which nodes of type {node_type} are transitively affected through {relation}?",
    ("failed", "node_type", "relation"))
OWNERS = QueryTemplate(
    "owners_of", "Owners of nodes", owners_of,
    "Which {relation} targets does each of {nodes} have?", ("nodes", "relation"))
OWNERS_OF_AFFECTED = QueryTemplate(
    "owners_of_affected", "Owners of the affected nodes", owners_of_affected,
    "If {failed} fails, which {owner_relation} targets does each affected node of type {node_type} have?",
    ("failed", "node_type", "relation", "owner_relation"))
IMPACT_OWNERS = QueryTemplate(
    "impact_owners", "Impact and owners", impact_owners,
    "If {failed} fails, which nodes of type {node_type} are transitively affected, and which teams own them?",
    ("failed", "node_type", "relation", "owner_relation"))


def query(template: QueryTemplate, **arguments: object) -> Query:
    return Query(template, tuple(sorted(arguments.items())))


def reference_suite() -> dict[str, Query]:
    """The reference benchmark's three queries on the service graph, under its names."""
    failure = dict(failed="db-identity", node_type="service", relation="depends_on")
    return {
        "api_dependencies_3_hops": query(DEPENDENCIES, start="svc-api", hops=3, relation="depends_on"),
        "identity_failure_affected_services": query(IMPACT, **failure),
        "owners_of_affected_services": query(OWNERS_OF_AFFECTED, owner_relation="owned_by", **failure),
    }
