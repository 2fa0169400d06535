"""Suite sweeps: rows equal to one-question sweeps, aggregates equal to a hand computation, every engine alike."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from core.analysis.suite import ROW_COLUMNS, plan, run_suite, settings_for, suite_inputs, unseeded_questions
from core.analysis.suite_aggregates import (
    aggregate,
    breakdown,
    failing_questions,
    pareto_across_budgets,
    seeding_comparison,
    smallest_budgets,
)
from core.analysis.sweep import sweep
from core.errors import ParameterError
from core.evaluate.statistics import wilson_interval
from core.execution.engine import run_tasks
from core.io.samples import get_sample
from core.questions import load_questions
from core.retrieval import ORDERINGS
from core.retrieval.seeds import Seeds
from core.specs import SweepSpec

SAMPLE = get_sample("nvidia-jetson")
GRAPH = SAMPLE.load()
ALL = load_questions(SAMPLE.queries_path)
# One of each CKG type, a repeated record and the tie: 7 questions.
SMALL = ALL.subset(["nvidia-jetson_T1_41", "nvidia-jetson_T2_28", "nvidia-jetson_T3_9_38", "nvidia-jetson_T3_1_20",
                    "nvidia-jetson_T3_1_44#2", "nvidia-jetson_T4_PLATFORM", "nvidia-jetson_T5_42_3"])
SETTINGS = settings_for(["jsonl", "pretty_json", "semantic_text"], budgets=(64, 256, 1024))


@pytest.fixture(scope="module")
def result():
    return run_suite(GRAPH, SMALL, SETTINGS, workers=1)


def test_every_row_equals_the_one_question_sweep_with_that_question_s_seeds(result):
    compared = [column for column in ROW_COLUMNS if column not in ("question_id", "seeding", "query_type", "hop_depth")]
    keys = ["format", "ordering", "layout", "policy", "budget"]
    for question in SMALL:
        if not question.annotation_seeds:
            continue
        alone = sweep(SweepSpec.from_names(GRAPH, {question.id: question.query}, seeds=Seeds(question.annotation_seeds),
                                           format_names=SETTINGS.formats, budgets=SETTINGS.budgets))
        mine = result.rows[(result.rows["question_id"] == question.id) & (result.rows["seeding"] == "annotations")]
        pd.testing.assert_frame_equal(mine.sort_values(keys)[compared].reset_index(drop=True),
                                      alone.sort_values(keys)[compared].reset_index(drop=True), check_dtype=False)


def test_question_independent_renderings_are_one_task_per_format(result):
    tasks = plan(suite_inputs(GRAPH, SMALL, SETTINGS))
    shared = [task for task in tasks if task.kind == "shared"]
    assert [task.formats for task in shared] == [("jsonl",), ("pretty_json",), ("semantic_text",)]
    independent = tuple(name for name in ORDERINGS.names()
                        if not ORDERINGS.get(name).uses_seeds and not ORDERINGS.get(name).per_query)
    assert {"canonical", "shuffled"} <= set(independent) and "hop_tiers" not in independent
    assert all(task.orderings == independent for task in shared)
    # text and annotation seeds agree on this set: one seeded task per distinct seed set, both seedings in it
    seeded = [task for task in tasks if task.kind == "seeded"]
    assert len(seeded) == len({q.annotation_seeds for q in SMALL})
    assert all({seeding for _, seeding in task.members} == {"text", "annotations"} for task in seeded)


def test_a_question_naming_no_node_keeps_its_shared_rows_and_is_listed(result):
    [listed] = unseeded_questions(result.questions, "text")["question_id"]
    assert listed == "nvidia-jetson_T4_PLATFORM"
    rows = result.rows[result.rows["question_id"] == listed]
    # every ordering that needs no seeds: the question-independent ones and those built from the question
    assert set(rows["ordering"]) == {name for name in ORDERINGS.names() if not ORDERINGS.get(name).uses_seeds}
    assert {"canonical", "evidence_first"} <= set(rows["ordering"])
    assert rows["candidate_recall"].isna().all()
    assert set(result.questions["ground_truth"]) == {"match", "tie"}


def small_rows() -> pd.DataFrame:
    """Four questions, two budgets, one cut group each: figures a reader can check by hand."""
    base = {"tokenizer": "o200k_base", "seeding": "text", "format": "jsonl", "lossless": True, "ordering": "canonical", "oracle": False,
            "layout": "nodes_then_edges", "policy": "record"}
    values = [  # question, type, hop, budget, accuracy, survival, complete, recall, tokens
        ("a", "T1", 0, 100, 1.0, 1.0, True, 0.5, 90), ("b", "T1", 0, 100, 0.0, 0.5, False, 0.25, 100),
        ("c", "T3", 2, 100, 0.0, 0.0, False, math.nan, 80), ("d", "T3", 3, 100, 1.0, 1.0, True, 1.0, 90),
        ("a", "T1", 0, 200, 1.0, 1.0, True, 1.0, 190), ("b", "T1", 0, 200, 1.0, 1.0, True, 0.75, 150),
        ("c", "T3", 2, 200, 1.0, 1.0, True, math.nan, 180), ("d", "T3", 3, 200, 1.0, 1.0, True, 1.0, 200)]
    return pd.DataFrame([{**base, "question_id": q, "query_type": t, "hop_depth": h, "budget": b,
                          "traversal_accuracy": a, "evidence_survival": s, "evidence_complete": c,
                          "candidate_recall": r, "budgeted_tokens": k} for q, t, h, b, a, s, c, r, k in values])


def test_aggregates_equal_a_hand_computation():
    table = aggregate(small_rows()).set_index("budget")
    low = table.loc[100]
    assert (low["questions"], low["answered"], low["traversal_accuracy"]) == (4, 2, 0.5)
    assert low["evidence_survival"] == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    assert low["evidence_complete"] == 0.5
    assert low["candidate_recall"] == pytest.approx((0.5 + 0.25 + 1.0) / 3) and low["recall_questions"] == 3
    assert low["mean_tokens"] == 90.0
    assert low["accuracy_per_1000_tokens"] == pytest.approx(0.5 * 1000 / 90)
    assert low["rds"] == pytest.approx(0.5 / 90)
    assert (low["accuracy_low"], low["accuracy_high"]) == pytest.approx((0.1500, 0.8500), abs=1e-4)  # Wilson, 2 of 4
    high = table.loc[200]
    assert high["traversal_accuracy"] == 1.0 and high["accuracy_high"] == 1.0
    assert high["accuracy_low"] == pytest.approx(4 / (4 + 1.959964 ** 2), abs=1e-6)  # Wilson at n of n: n/(n+z²)


def test_the_breakdowns_split_by_type_and_hop_depth():
    by_type = breakdown(small_rows(), "query_type").set_index(["query_type", "budget"])
    assert by_type.loc[("T1", 100), "traversal_accuracy"] == 0.5 and by_type.loc[("T3", 100), "questions"] == 2
    by_hop = breakdown(small_rows(), "hop_depth").set_index(["hop_depth", "budget"])
    assert by_hop.loc[(0, 100), "questions"] == 2 and by_hop.loc[(3, 100), "traversal_accuracy"] == 1.0
    assert by_hop.loc[(2, 100), "candidate_recall"] != by_hop.loc[(2, 100), "candidate_recall"]  # none to recall


def test_the_smallest_budgets_answering_90_and_100_percent():
    rows = small_rows()
    [found] = smallest_budgets(aggregate(rows)).to_dict("records")
    assert (found["budget_90"], found["budget_100"]) == (200, 200)
    never = rows.assign(traversal_accuracy=[1.0, 0.0, 0.0, 1.0] * 2)
    [found] = smallest_budgets(aggregate(never)).to_dict("records")
    assert pd.isna(found["budget_90"]) and pd.isna(found["budget_100"])


@pytest.mark.parametrize("successes, trials, low, high", [
    (3, 4, 0.3006, 0.9544), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (5, 10, 0.2366, 0.7634),
])
def test_wilson_intervals_on_known_cases(successes, trials, low, high):
    interval = wilson_interval(successes, trials)
    assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-4)  # published to 4 places


def test_the_pareto_rule_and_the_seeding_comparison_run_on_suite_rows(result):
    table = aggregate(result.rows)
    verdicts = pareto_across_budgets(result.rows)
    assert set(verdicts["seeding"]) == {"text", "annotations"} and set(verdicts["format"]) == set(SETTINGS.formats)
    side_by_side = seeding_comparison(table)
    assert {"traversal_accuracy_text", "traversal_accuracy_annotations"} <= set(side_by_side.columns)
    failing = failing_questions(result.rows, result.questions, seeding="text", format_name="jsonl",
                                ordering="canonical", layout="nodes_then_edges", policy="record", budget=64)
    assert len(failing) == len(SMALL)  # 64 tokens hold no record of this graph


def test_engines_refuse_unknown_names_and_impossible_settings():
    with pytest.raises(ParameterError, match="unknown engine 'spark'"):
        run_tasks(max, 0, [1], engine="spark")
    with pytest.raises(ParameterError, match="Ray address was given for the local engine"):
        run_tasks(max, 0, [1], ray_address="10.0.0.1:6379")
    with pytest.raises(ParameterError, match="unknown seeding"):
        settings_for(seedings=("psychic",))


def test_the_local_pool_gives_the_same_rows_as_one_process(result):
    # before any test starts Ray: the pool forks, and a fork should not copy a Ray driver's threads
    pd.testing.assert_frame_equal(run_suite(GRAPH, SMALL, SETTINGS, workers=2).rows, result.rows)


def test_ray_gives_the_same_rows_as_one_process(result, ray_instance):
    on_ray = run_suite(GRAPH, SMALL, SETTINGS, engine="ray")
    pd.testing.assert_frame_equal(on_ray.rows, result.rows)
    assert on_ray.task_cpu_seconds > 0  # measured in the Ray workers and sent back
    assert ray_instance.is_initialized()  # the session's instance was used, not shut down
