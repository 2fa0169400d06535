"""Log-axis ticks for budgets: 1-2-5 × 10ⁿ, finer on a short range, written in the number style."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from core.reports.axis_ticks import log_ticks


def test_a_long_range_gets_1_2_5_ticks_with_separators():
    assert log_ticks([64, 128, 8192]) == ((100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0),
                                          ("100", "200", "500", "1,000", "2,000", "5,000"))


def test_a_short_range_gets_finer_steps_and_never_every_mantissa():
    values, texts = log_ticks([500, 600, 700, 800, 900])
    assert values == (500.0, 700.0)
    assert texts == ("500", "700")


def test_a_range_inside_one_step_is_marked_at_its_ends():
    assert log_ticks([1154, 1200])[1] == ("1,154", "1,200")


@given(st.lists(st.integers(min_value=1, max_value=10**7), min_size=1, max_size=20))
def test_ticks_lie_inside_the_values_range_and_never_crowd(values):
    ticks, texts = log_ticks(values)
    assert ticks and min(values) * 0.999 <= min(ticks) and max(ticks) <= max(values) * 1.001
    assert len(ticks) == len(texts) == len(set(ticks))
    # grid ticks never crowd; a range too short for any grid is marked at its two ends, which cannot collide
    assert ticks == (min(values), max(values)) or all(later / earlier >= 1.15
                                                       for earlier, later in itertools.pairwise(ticks))
