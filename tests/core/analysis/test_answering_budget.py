"""The smallest budget that answers is exact: the record cut at it answers, the one a token below does not."""

from __future__ import annotations

import numpy as np
import pytest

from core import SweepSpec, Workbench, load_sample
from core.analysis.advisor import AdviceSettings, advise
from core.analysis.answering_budget import answering_budget, needed_budgets, reach_of
from core.analysis.best_choice import best_per_budget
from core.questions.reading import read_question

JETSON = load_sample("nvidia-jetson")
FORMATS = ["csv", "compact_json", "ckg_lines", "pretty_json"]


def test_the_needed_budget_of_a_prefix_is_the_largest_count_up_to_it_plus_the_grammar():
    assert needed_budgets(np.array([5, 9, 8, 12]), 3).tolist() == [8, 12, 12, 15]


def test_the_search_finds_the_first_answering_prefix_between_the_swept_cuts():
    needed = np.arange(100) * 10
    probed = []

    def answers(records: int) -> bool:
        probed.append(records)
        return records >= 37
    swept = [(200, 20, False), (500, 50, True), (900, 90, True)]
    assert answering_budget(needed, swept, answers) == 370
    assert all(20 < records < 50 for records in probed)  # only between the bracketing cuts
    assert answering_budget(needed, [(500, 50, False)], answers) is None


def test_a_share_of_questions_is_reached_from_the_budget_that_answers_that_many():
    assert reach_of([300, None, 100, 200], 0.5) == 200
    assert reach_of([300, None, 100, 200], 0.75) == 300
    assert reach_of([300, None, 100, 200], 1.0) is None and reach_of([100], 0.0) is None


@pytest.mark.parametrize("question", ["What is the prerequisite chain from Sbsa to Memory Optimization?",
                                      "How does Tensorrt relate to Cudnn?"])
def test_the_cut_at_the_answering_budget_answers_and_one_token_less_does_not(question):
    reading = read_question(JETSON, question)
    swept = Workbench().sweep(SweepSpec.from_names(JETSON, [reading.query], seeds=list(reading.seeds.node_ids),
                                                   format_names=FORMATS, budgets=[64, 512, 4096],
                                                   policy_names=["record"]))
    answering = swept.dropna(subset=["answering_budget"]).groupby(["format", "ordering", "layout"])[
        "answering_budget"].first().astype(int)
    assert len(answering) > 0
    edges = sorted({*answering, *(answering - 1)})
    again = Workbench().sweep(SweepSpec.from_names(JETSON, [reading.query], seeds=list(reading.seeds.node_ids),
                                                   format_names=FORMATS, budgets=edges, policy_names=["record"]))
    for (format_name, ordering, layout), budget in answering.items():
        here = again[(again["format"] == format_name) & (again["ordering"] == ordering) & (again["layout"] == layout)]
        accuracy = dict(zip(here["budget"], here["traversal_accuracy"]))
        assert accuracy[budget] == 1.0 and accuracy[budget - 1] == 0.0, (format_name, ordering, layout, budget)


def test_the_sweep_s_verdict_names_the_advisor_s_pick_for_the_same_arguments():
    reading = read_question(JETSON, "What is the prerequisite chain from Jetson Orin to Tensorrt?")
    seeds = list(reading.seeds.node_ids)
    settings = AdviceSettings(budgets=(1024,), formats=tuple(FORMATS), policies=("record",))
    advice = advise(JETSON, [reading.query], settings, seeds=seeds)
    frame = Workbench().sweep(SweepSpec.from_names(JETSON, [reading.query], seeds=seeds, format_names=FORMATS,
                                                   budgets=[1024], policy_names=["record"]))
    best = best_per_budget(frame).iloc[0]
    assert (best["format"], best["ordering"], best["layout"]) == (advice.best.format, advice.best.ordering,
                                                                  advice.best.layout)
    assert best["reach_budget"] == advice.best.reach_budget  # the same exact budget from which it answers


def test_the_front_over_what_answers_is_drawn_at_the_exact_answering_budgets():
    from core.analysis.answer_front import reach_points

    reading = read_question(JETSON, "How does Tensorrt relate to Cudnn?")
    frame = Workbench().sweep(SweepSpec.from_names(JETSON, [reading.query], seeds=list(reading.seeds.node_ids),
                                                   format_names=FORMATS, budgets=[256, 4096], policy_names=["record"]))
    points = reach_points(frame)
    exact = frame.groupby(["format", "ordering", "layout"])["answering_budget"].first()
    assert len(points) > 0
    for point in points.itertuples():
        assert point.reach_budget == exact[(point.format, point.ordering, point.layout)]  # not the swept 256 or 4096
