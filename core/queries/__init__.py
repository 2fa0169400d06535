"""Query templates: deterministic solvers with gold answers and the evidence unit keys an answer needs.

Families: dependency and ownership questions on service graphs (`services`), general graph
questions (`paths`), and the CKG query types T1-T5 on learning graphs (`learning`). Every template
has a question text; `Query.question_on(graph)` names nodes by label for model evaluation. The
registry `QUERIES` lists them all by name.
"""

from __future__ import annotations

from core.queries.learning import (
    ENTITY,
    PREREQUISITE_PATH,
    PREREQUISITES,
    RELATION_BETWEEN,
    TAXONOMY_MEMBERS,
    entity,
    prerequisite_path,
    prerequisites,
    relation_between,
    taxonomy_members,
)
from core.queries.model import Answer, Query, QueryTemplate, Solution, label_of, query, query_from_seeds
from core.queries.paths import SHORTEST_PATH, TYPED_NEIGHBOURS, shortest_path, typed_neighbours
from core.queries.services import (
    DEPENDENCIES,
    IMPACT,
    IMPACT_OWNERS,
    OWNERS,
    OWNERS_OF_AFFECTED,
    dependencies_within,
    impact,
    impact_owners,
    owners_of,
    owners_of_affected,
)
from core.registry import Registry

TEMPLATES: tuple[QueryTemplate, ...] = (
    DEPENDENCIES, IMPACT, OWNERS, OWNERS_OF_AFFECTED, IMPACT_OWNERS,
    SHORTEST_PATH, TYPED_NEIGHBOURS,
    ENTITY, PREREQUISITES, PREREQUISITE_PATH, TAXONOMY_MEMBERS, RELATION_BETWEEN,
)

# Query templates with deterministic solvers, by name.
QUERIES: Registry[QueryTemplate] = Registry("query", [(template.name, template) for template in TEMPLATES])


def reference_suite() -> dict[str, Query]:
    """The reference benchmark's three queries on the service graph, under its names."""
    failure = dict(failed="db-identity", node_type="service", relation="depends_on")
    return {
        "api_dependencies_3_hops": query(DEPENDENCIES, start="svc-api", hops=3, relation="depends_on"),
        "identity_failure_affected_services": query(IMPACT, **failure),
        "owners_of_affected_services": query(OWNERS_OF_AFFECTED, owner_relation="owned_by", **failure),
    }


__all__ = [
    "DEPENDENCIES",
    "ENTITY",
    "IMPACT",
    "IMPACT_OWNERS",
    "OWNERS",
    "OWNERS_OF_AFFECTED",
    "PREREQUISITES",
    "PREREQUISITE_PATH",
    "QUERIES",
    "RELATION_BETWEEN",
    "SHORTEST_PATH",
    "TAXONOMY_MEMBERS",
    "TEMPLATES",
    "TYPED_NEIGHBOURS",
    "Answer",
    "Query",
    "QueryTemplate",
    "Solution",
    "dependencies_within",
    "entity",
    "impact",
    "impact_owners",
    "label_of",
    "owners_of",
    "owners_of_affected",
    "prerequisite_path",
    "prerequisites",
    "query",
    "query_from_seeds",
    "reference_suite",
    "relation_between",
    "shortest_path",
    "taxonomy_members",
    "typed_neighbours",
]
