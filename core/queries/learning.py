"""The CKG benchmark's query types T1-T5 on learning graphs (concepts typed by taxonomy, depends_on).

A learning graph (core.io.learning_graph) has one node per concept, its taxonomy code as node type,
its label in the `label` property, and `concept --depends_on--> prerequisite` edges. Answers are
labels, as in the CKG ground truth; lists are sorted, since the CKG orders them by CSV position,
which a canonical graph does not keep. T3 returns the chain in walking order (concept first).
Its ties between equally short chains go to the smallest node ids, where the CKG generator follows
the CSV's order of dependencies.
"""

from __future__ import annotations

from core.graph.model import Graph
from core.graph.units import node_key
from core.queries import traversal
from core.queries.model import QueryTemplate, Solution, label_of

RELATION = "depends_on"


def entity(graph: Graph, concept: str) -> Solution:
    """T1: the concept's label and taxonomy code ([] when the concept is absent)."""
    node = graph.node_by_id.get(concept)
    answer = [label_of(graph, concept), node.type] if node is not None else []
    return Solution(answer, frozenset({node_key(concept)}))


def prerequisites(graph: Graph, concept: str, relation: str = RELATION) -> Solution:
    """T2: labels of the concept's direct prerequisites."""
    steps = traversal.adjacency(graph, relation, reverse=False).get(concept, [])
    targets = {target for target, _ in steps}
    evidence = {key for _, key in steps} | {node_key(target) for target in targets}
    return Solution(sorted(label_of(graph, target) for target in targets), frozenset(evidence))


def prerequisite_path(graph: Graph, start: str, concept: str, relation: str = RELATION) -> Solution:
    """T3: labels along the shortest prerequisite chain from the concept down to `start` ([] if none).

    Every chain of the same length answers as well (`Solution.chain_steps`): the CKG generator's own chain
    may be another of the ties."""
    found = traversal.shortest_path_and_ties(graph, concept, start, relation)
    if found is None:
        return Solution([], frozenset())
    nodes, keys, ties = found
    steps = frozenset((label_of(graph, first), label_of(graph, second)) for first, second in ties)
    return Solution([label_of(graph, node) for node in nodes], frozenset(keys) | {node_key(n) for n in nodes}, steps)


def taxonomy_members(graph: Graph, taxonomy: str) -> Solution:
    """T4: labels of every concept whose taxonomy code (node type) is `taxonomy`."""
    members = [node.id for node in graph.nodes if node.type == taxonomy]
    return Solution(sorted(label_of(graph, member) for member in members),
                    frozenset(node_key(member) for member in members))


def relation_between(graph: Graph, first: str, second: str, relation: str = RELATION) -> Solution:
    """T5: labels of both concepts, the chain between them (either way) and their shared prerequisites."""
    chains = [found for found in (traversal.shortest_path(graph, first, second, relation),
                                  traversal.shortest_path(graph, second, first, relation)) if found is not None]
    nodes, keys = min(chains, key=lambda found: len(found[0])) if chains else ([first, second], [])
    forwards = traversal.adjacency(graph, relation, reverse=False)
    first_steps, second_steps = dict(forwards.get(first, [])), dict(forwards.get(second, []))
    shared = sorted(set(first_steps) & set(second_steps))
    concepts = set(nodes) | set(shared)
    evidence = set(keys) | {node_key(concept) for concept in concepts | {first, second}}
    evidence |= {first_steps[target] for target in shared} | {second_steps[target] for target in shared}
    return Solution(sorted({label_of(graph, concept) for concept in concepts}), frozenset(evidence))


ENTITY = QueryTemplate("t1_entity", "CKG T1: entity", entity, "What is {concept}?", ("concept",),
                       node_parameters=("concept",), family="learning")
PREREQUISITES = QueryTemplate("t2_prerequisites", "CKG T2: direct prerequisites", prerequisites,
                              "What are the prerequisites for {concept}?", ("concept", "relation"),
                              node_parameters=("concept",), family="learning", relation_parameters=("relation",))
PREREQUISITE_PATH = QueryTemplate("t3_prerequisite_path", "CKG T3: prerequisite chain", prerequisite_path,
                                  "What is the prerequisite chain from {start} to {concept}?",
                                  ("start", "concept", "relation"), node_parameters=("start", "concept"),
                                  family="learning", relation_parameters=("relation",))
TAXONOMY_MEMBERS = QueryTemplate("t4_taxonomy_members", "CKG T4: all concepts of a taxonomy", taxonomy_members,
                                 "List all {taxonomy} concepts in this knowledge graph", ("taxonomy",),
                                 family="learning")
RELATION_BETWEEN = QueryTemplate("t5_relation", "CKG T5: relation between two concepts", relation_between,
                                 "How does {first} relate to {second}?", ("first", "second", "relation"),
                                 node_parameters=("first", "second"), family="learning",
                                 relation_parameters=("relation",))
