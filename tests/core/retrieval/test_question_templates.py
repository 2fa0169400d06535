"""The numbers a question states as parameters: a hop count is read, and never taken for a node id."""

import pytest

from core.retrieval.question_templates import parameter_number_spans, stated_hops


@pytest.mark.parametrize("question, hops", [
    ("Which nodes does Tensorrt reach over depends_on edges in at most 3 hops?", 3),
    ("What does svc-api need up to 4 hops away?", 4),
    ("What does svc-api depend on, 2-hop?", 2),
    ("What does svc-api depend on?", None),
])
def test_a_hop_count_is_read_however_it_is_phrased(question, hops):
    assert stated_hops(question) == hops


def test_the_numbers_that_state_parameters_are_found():
    question = "Which nodes does 12 reach in at most 3 hops, depth 2, not 7?"
    spans = parameter_number_spans(question)
    assert [question[start:end] for start, end in spans] == ["3", "2"]  # 12 and 7 are no parameter
