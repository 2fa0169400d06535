"""Seeds two ways: from the question's text (name matching) and from its annotations (the oracle)."""

from __future__ import annotations

from core.io.samples import get_sample
from core.queries import IMPACT, query
from core.questions import Question, load_questions, question_seeds

SAMPLE = get_sample("nvidia-jetson")
GRAPH = SAMPLE.load()


def test_on_the_ckg_set_text_and_annotations_agree_except_where_nothing_is_named():
    for question in load_questions(SAMPLE.queries_path):
        text, annotations = question_seeds(GRAPH, question, "text"), question_seeds(GRAPH, question, "annotations")
        if question.query_type == "T4_aggregate":  # "List all SDK concepts": no node named either way
            assert not text.found and not annotations.found and text.matched == "the text names no node"
        else:
            assert text.node_ids == annotations.node_ids == question.annotation_seeds


def test_a_question_naming_no_node_has_no_text_seeds_but_keeps_its_annotations():
    question = Question("q", "Which storage would break?", query(IMPACT, failed="db-identity"))
    services = get_sample("reference-services").load()
    assert question_seeds(services, question, "text").node_ids == ()
    assert question_seeds(services, question, "annotations").node_ids == ("db-identity",)
