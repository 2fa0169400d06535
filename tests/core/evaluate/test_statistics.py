"""Uncertainty: Wilson intervals for exact-match rates, a bootstrap over queries for mean F1."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ParameterError
from core.evaluate.statistics import bootstrap_over_queries, wilson_interval


def test_wilson_matches_the_textbook_value():
    # 8 of 10 at 95 %: the Wilson interval is [0.4902, 0.9433] (Wilson 1927; Newcombe 1998, table I)
    interval = wilson_interval(8, 10)
    assert (interval.low, interval.high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert interval.estimate == 0.8


def test_wilson_is_not_degenerate_at_the_edges():
    none, every = wilson_interval(0, 5), wilson_interval(5, 5)
    assert none.low == 0.0 and 0.4 < none.high < 0.5
    assert every.high == 1.0 and 0.5 < every.low < 0.6


def test_no_trials_give_the_whole_range():
    interval = wilson_interval(0, 0)
    assert math.isnan(interval.estimate) and (interval.low, interval.high) == (0.0, 1.0)


@pytest.mark.parametrize("successes, trials", [(3, 2), (-1, 4)])
def test_impossible_counts_are_refused(successes, trials):
    with pytest.raises(ParameterError):
        wilson_interval(successes, trials)


@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_proportion_and_narrows_with_confidence(pair):
    successes, trials = pair
    wide, narrow = wilson_interval(successes, trials, 0.99), wilson_interval(successes, trials, 0.8)
    assert 0.0 <= wide.low <= narrow.low <= successes / trials <= narrow.high <= wide.high <= 1.0


def test_bootstrap_resamples_queries_not_answers():
    # one query answered perfectly in 9 trials, one failed in 1 trial: by query the mean is 0.5
    interval = bootstrap_over_queries({"a": [1.0] * 9, "b": [0.0]})
    assert interval.estimate == 0.5
    assert interval.low == 0.0 and interval.high == 1.0


def test_bootstrap_is_deterministic_by_seed_and_brackets_the_mean():
    values = {f"q{index}": [index / 10] for index in range(10)}
    first, second = bootstrap_over_queries(values, seed=3), bootstrap_over_queries(values, seed=3)
    assert first == second
    assert first.low < first.estimate < first.high
    assert first.estimate == pytest.approx(0.45)


def test_one_query_gives_a_zero_width_interval_and_none_gives_nan():
    assert bootstrap_over_queries({"a": [0.5, 1.0]}).low == bootstrap_over_queries({"a": [0.5, 1.0]}).high == 0.75
    assert math.isnan(bootstrap_over_queries({}).estimate)
