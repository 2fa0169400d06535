"""The advisor's ranking rule: accuracy with its Wilson interval, the budget that reaches it, tokens; baselines
never picked; ties within noise picked by cost."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.ranking import (
    Standing,
    choose,
    intervals_overlap,
    questions_to_separate,
    reach_budget,
    wilson_interval,
)


def standing(name, correct, questions, reach, tokens, *, family=None, baseline=False):
    return Standing(name, family or name, correct, questions, reach, tokens, baseline)


def test_wilson_interval_matches_the_closed_form():
    # 1 of 1 at 95%: the lower end is n / (n + z^2) = 1 / (1 + 3.8415) = 0.2065
    assert wilson_interval(1, 1) == (pytest.approx(1 / (1 + 1.959963984540054 ** 2)), 1.0)
    assert wilson_interval(0, 1) == (0.0, pytest.approx(1.959963984540054 ** 2 / (1 + 1.959963984540054 ** 2)))
    low, high = wilson_interval(45, 50)
    assert (round(low, 4), round(high, 4)) == (0.7864, 0.9565)  # the published value for 45/50
    assert wilson_interval(0, 0) == (0.0, 1.0)


@given(st.integers(0, 400), st.integers(1, 400))
def test_the_interval_holds_the_share(correct, questions):
    correct = min(correct, questions)
    low, high = wilson_interval(correct, questions)
    assert 0.0 <= low <= correct / questions <= high <= 1.0


def test_questions_to_separate_is_the_first_count_whose_intervals_do_not_overlap():
    assert questions_to_separate(1.0, 0.0) == 4  # 3/3 (0.44-1) and 0/3 (0-0.56) still overlap
    assert intervals_overlap(wilson_interval(3, 3), wilson_interval(0, 3))
    assert not intervals_overlap(wilson_interval(4, 4), wilson_interval(0, 4))
    found = questions_to_separate(0.9, 0.7)
    assert not intervals_overlap(wilson_interval(round(0.9 * found), found), wilson_interval(round(0.7 * found), found))
    assert all(intervals_overlap(wilson_interval(round(0.9 * n), n), wilson_interval(round(0.7 * n), n))
               for n in range(1, found))
    assert questions_to_separate(0.5, 0.5) is None


def test_a_random_or_oracle_ordering_is_never_the_pick_even_when_it_is_best():
    verdict = choose([standing("luck", 1, 1, 64, 50, baseline=True), standing("oracle", 1, 1, 32, 20, baseline=True),
                      standing("csv", 0, 1, 64, 60)])
    assert verdict.pick.name == "csv"
    assert [item.name for item in verdict.baselines] == ["oracle", "luck"]


def test_one_question_is_always_tied_and_says_so():
    verdict = choose([standing("csv", 1, 1, 128, 120), standing("jsonl", 1, 1, 256, 200)])
    assert verdict.pick.name == "csv" and verdict.runner_up.name == "jsonl"
    assert verdict.tied and verdict.questions == 1 and verdict.questions_to_separate is None


def test_within_the_best_interval_the_cheaper_is_picked():
    # 9/10 lies inside 10/10's interval (0.72-1): tied within noise, so the one reaching it at 256 is picked
    verdict = choose([standing("csv", 10, 10, 1024, 900), standing("jsonl", 9, 10, 256, 250)])
    assert verdict.most_accurate.name == "csv" and verdict.pick.name == "jsonl" and verdict.picked_by_cost
    assert verdict.tied


def test_far_apart_accuracies_are_separated_and_the_accurate_one_wins():
    verdict = choose([standing("csv", 50, 50, 1024, 900), standing("jsonl", 10, 50, 64, 60)])
    assert verdict.pick.name == "csv" and not verdict.tied and verdict.questions_to_separate <= 50


def test_the_runner_up_is_in_another_family():
    verdict = choose([standing("csv a", 1, 1, 64, 60, family="csv"), standing("csv b", 1, 1, 64, 61, family="csv"),
                      standing("toon", 1, 1, 128, 100, family="toon")])
    assert verdict.pick.name == "csv a" and verdict.runner_up.name == "toon"


def test_reach_budget_is_the_smallest_budget_at_the_accuracy():
    assert reach_budget([(64, 0.0), (128, 1.0), (256, 0.5), (512, 1.0)], 1.0) == 128
    assert reach_budget([(64, 0.5), (128, 0.25)], 0.25) == 64
    with pytest.raises(ValueError):
        reach_budget([(64, 0.0)], 1.0)
    assert math.isclose(standing("x", 2, 3, 1, 1).accuracy, 2 / 3)
