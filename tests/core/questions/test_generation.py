"""Generated question sets: seeded, reproducible, over every node of a type or pairs at a hop distance."""

from __future__ import annotations

import networkx as nx
import pytest

from core.errors import ParameterError
from core.io.samples import load_sample
from core.questions import generate

JETSON = load_sample("nvidia-jetson")
SERVICES = load_sample("reference-services")


def test_every_node_of_a_type_gets_one_question():
    questions = generate(SERVICES, "dependencies_within:type=service,hops=2")
    services = sorted(node.id for node in SERVICES.nodes if node.type == "service")
    assert [q.query.all_arguments["start"] for q in questions] == services
    assert all(q.query.all_arguments["hops"] == 2 for q in questions)
    assert questions.questions[0].text.startswith(f"Which nodes does {services[0]} reach")
    assert len(generate(SERVICES, "impact:type=service,count=5,seed=1")) == 5


def test_pairs_lie_at_the_asked_hop_distance_and_the_same_seed_gives_the_same_set():
    spec = "t3_prerequisite_path:count=12,distance=2-4,seed=7"
    first, again, other = generate(JETSON, spec), generate(JETSON, spec), generate(JETSON, spec.replace("7", "8"))
    assert first.questions == again.questions and first.questions != other.questions
    assert len(first) == 12
    prerequisites = nx.DiGraph([(e.source, e.target) for e in JETSON.edges if e.relation == "depends_on"])
    for question in first:
        arguments = question.query.all_arguments
        distance = nx.shortest_path_length(prerequisites, arguments["concept"], arguments["start"])
        assert question.hop_depth == distance and 2 <= distance <= 4
        assert question.query.solve(JETSON).answer  # a chain exists, so the question has an answer


@pytest.mark.parametrize("spec, message", [
    ("teleport:count=3", "unknown query template 'teleport'"),
    ("impact:colour=red", "unknown key(s) colour"),
    ("impact:count=many", "count='many' is not a whole number"),
    ("t5_relation:distance=3-1", "distance=3-1 is not a range"),
    ("impact:type=spaceship", "gives no question on this graph"),
    ("t4_taxonomy_members", "names no node"),
])
def test_bad_specs_are_refused_by_name(spec, message):
    with pytest.raises(ParameterError) as raised:
        generate(SERVICES, spec)
    assert message in str(raised.value)
