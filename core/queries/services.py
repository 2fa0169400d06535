"""Dependency and ownership queries: k-hop dependencies, transitive impact of a failure, owners."""

from __future__ import annotations

from core.graph.model import Graph
from core.graph.units import node_key
from core.queries.model import QueryTemplate, Solution
from core.queries.traversal import adjacency, breadth_first


def dependencies_within(graph: Graph, start: str, hops: int = 3, relation: str = "depends_on") -> Solution:
    """Nodes reachable from `start` over `relation` in at most `hops` steps."""
    reached, tree_edges = breadth_first(graph, start, relation, reverse=False, max_hops=hops)
    return Solution(sorted(reached), frozenset(tree_edges))


def _affected(graph: Graph, failed: str, node_type: str, relation: str) -> tuple[list[str], set[str]]:
    reached, tree_edges = breadth_first(graph, failed, relation, reverse=True, max_hops=float("inf"))
    nodes = graph.node_by_id  # looked up per reached node: a solver on a kept view reads only what it explores
    affected = sorted(node_id for node_id in reached if getattr(nodes.get(node_id), "type", None) == node_type)
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
    outgoing = adjacency(graph, relation, reverse=False)
    for node_id in wanted:
        for target, key in outgoing.get(node_id, ()):
            owners[node_id].add(target)
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
    """The affected nodes of `impact` and, for each, its owners (the reference db-identity question)."""
    affected, evidence = _affected(graph, failed, node_type, relation)
    owners, owner_evidence = _owners(graph, affected, owner_relation)
    return Solution({"affected": affected, "owners": owners}, frozenset(evidence | owner_evidence))


DEPENDENCIES = QueryTemplate(
    "dependencies_within", "Dependencies within k hops", dependencies_within,
    "Which nodes does {start} reach over {relation} edges in at most {hops} hops?",
    ("start", "hops", "relation"), node_parameters=("start",), family="services",
    relation_parameters=("relation",))
IMPACT = QueryTemplate(
    "impact", "Transitive impact of a failure", impact,
    "If {failed} fails, which nodes of type {node_type} are transitively affected through {relation}?",
    ("failed", "node_type", "relation"), node_parameters=("failed",), family="services",
    relation_parameters=("relation",), type_parameters=("node_type",))
OWNERS = QueryTemplate(
    "owners_of", "Owners of nodes", owners_of,
    "Which {relation} targets does each of {nodes} have?", ("nodes", "relation"),
    node_parameters=("nodes",), family="services", collects_seeds=True, relation_parameters=("relation",))
OWNERS_OF_AFFECTED = QueryTemplate(
    "owners_of_affected", "Owners of the affected nodes", owners_of_affected,
    "If {failed} fails, which {owner_relation} targets does each affected node of type {node_type} have?",
    ("failed", "node_type", "relation", "owner_relation"), node_parameters=("failed",), family="services",
    relation_parameters=("relation", "owner_relation"), type_parameters=("node_type",))
IMPACT_OWNERS = QueryTemplate(
    "impact_owners", "Impact and owners", impact_owners,
    "If {failed} fails, which nodes of type {node_type} are transitively affected, and which teams own them?",
    ("failed", "node_type", "relation", "owner_relation"), node_parameters=("failed",), family="services",
    relation_parameters=("relation", "owner_relation"), type_parameters=("node_type",))
