"""Token estimators pipelines budget with (chars/4, chars/3, words × 1.3), and their signed error against an exact count.

Rounding rules, one each:
- characters are Python characters (code points), `len(text)`; words are runs of non-whitespace, `len(text.split())`;
- each estimate is rounded up to a whole token (budgeting code rounds up to stay safe), in integer arithmetic so
  that 10 words × 1.3 is 13, not 14 (13.000000000000002 rounded up);
- the error is (estimate − exact) / exact of the rounded estimate, unrounded here: positive means the estimator
  over-counts (a budget it sets wastes room), negative that it under-counts (a context it passes overflows);
  None when the exact count is 0. Shown to users by `core.number_style.signed_share`; JSON keeps it as a
  percentage with one decimal (`percent`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def _ceiling_ratio(numerator: int, denominator: int) -> int:
    return -(-numerator // denominator)


@dataclass(frozen=True)
class Estimator:
    """A rule of thumb: a whole-token estimate from a text's characters and words."""

    name: str
    description: str
    estimate_sizes: Callable[[int, int], int]  # (characters, words) -> tokens

    def estimate(self, text: str) -> int:
        return self.estimate_sizes(len(text), len(text.split()))


ESTIMATORS: tuple[Estimator, ...] = (
    Estimator("chars/4", "characters ÷ 4, rounded up (OpenAI's rule of thumb for English)",
              lambda characters, words: _ceiling_ratio(characters, 4)),
    Estimator("chars/3", "characters ÷ 3, rounded up (a stricter rule for code and JSON)",
              lambda characters, words: _ceiling_ratio(characters, 3)),
    Estimator("words×1.3", "whitespace-separated words × 1.3, rounded up",
              lambda characters, words: _ceiling_ratio(words * 13, 10)),
)
ESTIMATOR_NAMES = tuple(estimator.name for estimator in ESTIMATORS)


def signed_error(estimate: int, exact: int) -> float | None:
    """(estimate − exact) / exact: +0.25 over-counts by a quarter, −0.5 counts half; None for an empty text."""
    return None if exact == 0 else (estimate - exact) / exact


def percent(error: float | None) -> float | None:
    """The error as a percentage with one decimal, as JSON writes it (−43.2)."""
    return None if error is None else round(100 * error, 1)
