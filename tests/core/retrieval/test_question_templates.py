"""A typed question picks the query template it asks for."""

import pytest

from core.queries import QUERIES
from core.retrieval.question_templates import parameter_number_spans, template_for_question


@pytest.mark.parametrize("question, template", [
    ("If db-identity fails, which services break and who owns them?", "impact_owners"),
    ("db-identity fails: which services and teams are affected?", "impact_owners"),
    ("If cartservice fails, which services are transitively affected?", "impact"),
    ("Who owns svc-api?", "owners_of"),
    ("What is the shortest path from svc-web to db-identity?", "shortest_path"),
    ("What are the prerequisites of TensorRT?", "t2_prerequisites"),
    ("What is the prerequisite chain from JetPack to TensorRT?", "t3_prerequisite_path"),
    ("What does svc-api depend on within 2 hops?", "dependencies_within"),
    ("Which stations are connected to line-red?", "typed_neighbours"),
])
def test_the_words_pick_the_template(question, template):
    assert template_for_question(question).template == template and template in QUERIES


def test_a_stated_hop_count_is_kept():
    assert dict(template_for_question("What does svc-api depend on within 2 hops?").arguments) == {"hops": 2}


def test_a_question_without_a_known_shape_changes_nothing():
    assert template_for_question("Tell me about svc-api") is None


@pytest.mark.parametrize("question, hops", [
    ("Which nodes does Tensorrt reach over depends_on edges in at most 3 hops?", 3),
    ("What does svc-api need up to 4 hops away?", 4),
    ("What does svc-api depend on, 2-hop?", 2),
])
def test_a_hop_count_is_read_however_it_is_phrased(question, hops):
    assert dict(template_for_question(question).arguments) == {"hops": hops}


def test_the_numbers_that_state_parameters_are_found():
    question = "Which nodes does 12 reach in at most 3 hops, depth 2, not 7?"
    spans = parameter_number_spans(question)
    assert [question[start:end] for start, end in spans] == ["3", "2"]  # 12 and 7 are no parameter
