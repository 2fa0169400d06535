"""Token estimators: each rule on a text of known length and word count, rounded up, and its signed error."""

from __future__ import annotations

import pytest

from core.tokens.estimators import ESTIMATOR_NAMES, ESTIMATORS, percent, signed_error

BY_NAME = dict(zip(ESTIMATOR_NAMES, ESTIMATORS))
PANGRAM = "The quick brown fox jumps over the lazy dog."  # 44 characters, 9 words


def test_each_estimate_is_worked_out_by_hand_and_rounded_up():
    assert (len(PANGRAM), len(PANGRAM.split())) == (44, 9)
    assert BY_NAME["chars/4"].estimate(PANGRAM) == 11  # 44 / 4
    assert BY_NAME["chars/3"].estimate(PANGRAM) == 15  # 44 / 3 = 14.67, up
    assert BY_NAME["words×1.3"].estimate(PANGRAM) == 12  # 9 × 1.3 = 11.7, up


def test_ten_words_are_thirteen_tokens_not_fourteen():
    """10 × 1.3 is 13.000000000000002 in floating point; rounding that up would say 14."""
    assert BY_NAME["words×1.3"].estimate(" ".join(["word"] * 10)) == 13


def test_characters_are_code_points_and_words_are_runs_between_whitespace():
    text = "東京は日本の首都です。"  # 11 characters, no space: one word
    assert BY_NAME["chars/4"].estimate(text) == 3 and BY_NAME["words×1.3"].estimate(text) == 2


@pytest.mark.parametrize(("estimate", "exact", "error"), [(11, 10, 0.1), (5, 10, -0.5), (10, 10, 0.0)])
def test_the_error_is_signed_positive_for_an_over_count(estimate, exact, error):
    assert signed_error(estimate, exact) == pytest.approx(error)


def test_an_empty_text_has_no_error_and_json_keeps_one_decimal():
    assert signed_error(0, 0) is None and percent(None) is None
    assert percent(signed_error(2, 3)) == -33.3
