"""A question whose answer on the graph is empty is left out of a set's rows, advice and contexts, and counted."""

from __future__ import annotations

import pytest

from core.analysis.advisor import AdviceSettings, suite_rows
from core.analysis.answer_contexts import SweepOptions, question_contexts
from core.analysis.suite import run_suite, settings_for
from core.analysis.suite_aggregates import aggregate
from core.errors import ParameterError
from core.io.samples import get_sample
from core.questions import answered_split, counted_questions, parse_questions_jsonl

GRAPH = get_sample("nvidia-jetson").load()
# Jetson Orin (concept 1) has no prerequisites: its answer, [], is what a context holding nothing gives.
EMPTY = '{"id": "orin", "question": "What are the prerequisites for Jetson Orin?", "query": "t2_prerequisites", ' \
        '"parameters": {"concept": "1"}, "ground_truth": []}\n'
ANSWERED = '{"id": "tensorrt", "question": "What are the prerequisites for Tensorrt?", "query": "t2_prerequisites", ' \
           '"parameters": {"concept": "12"}}\n'
MIXED = parse_questions_jsonl(EMPTY + ANSWERED, graph=GRAPH, name="mixed")
SETTINGS = settings_for(["csv"], ["hop_tiers"], layouts=["interleaved"], policies=["record"], budgets=(64, 1024))


@pytest.fixture(scope="module")
def result():
    return run_suite(GRAPH, MIXED, SETTINGS, workers=1)


def test_the_empty_answer_is_left_out_of_the_rows_and_listed_with_its_reason(result):
    assert set(result.rows["question_id"]) == {"tensorrt"}
    assert result.questions["question_id"].tolist() == ["tensorrt"]
    [left_out] = result.left_out.itertuples()
    assert left_out.question_id == "orin" and left_out.template == "t2_prerequisites"
    assert left_out.reason.startswith("t2_prerequisites(concept=1) has no answer on this graph")
    assert result.rows.attrs["parameters"]["left_out"] == ["orin"]
    assert result.rows.attrs["parameters"]["questions_in_set"] == 2


def test_its_accuracy_is_not_counted(result):
    table = aggregate(result.rows)
    assert set(table["questions"]) == {1}  # the answered question alone
    at_64 = table[table["budget"] == 64]
    assert (at_64["traversal_accuracy"] == 0).all()  # 64 tokens hold no prerequisites of Tensorrt; the empty one
    # would have scored 1.00 there and lifted the mean to 0.50


def test_the_headline_counts_the_left_out(result):
    assert result.headline == "1 of 2 questions; 1 has no answer on this graph, left out"
    assert counted_questions(10, 2) == "8 of 10 questions; 2 have no answer on this graph, left out"
    assert counted_questions(10, 0) == "10 questions"
    assert run_suite(GRAPH, MIXED.subset(["tensorrt"]), SETTINGS, workers=1).headline == "1 question"


def test_a_set_where_nothing_has_an_answer_is_refused():
    only_empty = MIXED.subset(["orin"])
    with pytest.raises(ParameterError, match="none of the 1 questions has an answer on this graph"):
        run_suite(GRAPH, only_empty, SETTINGS, workers=1)
    with pytest.raises(ParameterError, match="no answer"):
        _ = answered_split(GRAPH, only_empty).measured


def test_the_advisors_rows_and_the_evaluated_contexts_leave_it_out_too():
    settings = AdviceSettings(formats=("csv",), orderings=("hop_tiers",), layouts=("interleaved",),
                              policies=("record",), budgets=(1024,), ladder_steps=0)
    assert set(suite_rows(GRAPH, MIXED, settings.checked())["query"]) == {"tensorrt"}
    contexts = question_contexts(GRAPH, MIXED, SweepOptions(("csv",), budgets=(1024,)))
    assert {context.question_id for context in contexts} == {"tensorrt"}
