"""Seeded graph generators; `service_graph` reproduces the reference benchmark's make_graph exactly."""

from __future__ import annotations

import random

from core.errors import ParameterError
from core.graph import Edge, Graph, Node

_CORE_NODES = (
    ("db-identity", "database"),
    ("team-core", "team"),
    ("team-growth", "team"),
    ("svc-web", "service"),
    ("svc-api", "service"),
    ("svc-auth", "service"),
    ("svc-profile", "service"),
)
_CORE_EDGES = (
    ("svc-web", "depends_on", "svc-api"),
    ("svc-api", "depends_on", "svc-auth"),
    ("svc-profile", "depends_on", "svc-auth"),
    ("svc-auth", "depends_on", "db-identity"),
    ("svc-web", "owned_by", "team-growth"),
    ("svc-api", "owned_by", "team-core"),
    ("svc-auth", "owned_by", "team-core"),
    ("svc-profile", "owned_by", "team-growth"),
)


def service_graph(services: int = 40, noise_edges: int = 80, seed: int = 7) -> Graph:
    """Services, teams and a database with depends_on / owned_by edges plus seeded noise dependencies.

    Four named services carry the question "db-identity fails: who is affected, who owns them?";
    `services - 4` noise services follow, and up to `noise_edges` random service-to-service
    depends_on edges drawn with random.Random(seed), in the reference's order of draws.
    """
    if services < 0 or noise_edges < 0:
        raise ParameterError("services and noise edges cannot be negative",
                             f"services={services}, noise_edges={noise_edges}", "pass 0 or more")
    rng = random.Random(seed)
    nodes = [Node(node_id, node_type) for node_id, node_type in _CORE_NODES]
    nodes.extend(Node(f"svc-noise-{index:04d}", "service") for index in range(max(0, services - 4)))
    all_services = [node.id for node in nodes if node.type == "service"]
    edges = {Edge(*triple) for triple in _CORE_EDGES}
    wanted = len(_CORE_EDGES) + noise_edges
    attempts = 0
    # The reference loop: draw pairs until enough distinct edges exist or the attempts run out.
    while len(edges) < wanted and attempts < noise_edges * 50 + 100:
        attempts += 1
        source = rng.choice(all_services)
        target = rng.choice(all_services)
        if source != target:
            edges.add(Edge(source, "depends_on", target))
    return Graph.build(nodes, edges)
