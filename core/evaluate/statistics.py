"""Uncertainty of model-answer scores: Wilson intervals for proportions, a bootstrap over queries for means."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from core.errors import ParameterError


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float
    confidence: float


Z_95 = 1.959963984540054  # the standard normal quantile of a two-sided 95% interval


def _z(confidence: float) -> float:
    # Not cached: NormalDist().inv_cdf takes 0.3 µs, about what an lru_cache lookup does.
    if not 0 < confidence < 1:
        raise ParameterError(f"confidence {confidence} is outside (0, 1)", "confidence", "use e.g. 0.95")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> Interval:
    """Wilson score interval for a binomial proportion; with no trials, the whole [0, 1] range.

    Unlike the normal approximation it stays inside [0, 1] and is not degenerate at 0 or n successes,
    which is where small evaluations (a few queries, a few trials) usually are.
    """
    if trials < 0 or not 0 <= successes <= max(trials, 0):
        raise ParameterError(f"{successes} successes in {trials} trials is impossible", "wilson_interval",
                             "pass 0 <= successes <= trials")
    if trials == 0:
        return Interval(math.nan, 0.0, 1.0, confidence)
    low, high = wilson_bounds(successes, trials, _z(confidence))
    return Interval(successes / trials, low, high, confidence)


def wilson_bounds(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval's ends for `successes` of `trials` (at least one) at quantile `z`: unchecked,
    for callers that scan many counts (the advisor's questions_to_separate)."""
    proportion = successes / trials
    denominator = 1 + z * z / trials
    centre = (proportion + z * z / (2 * trials)) / denominator
    half_width = z * math.sqrt(proportion * (1 - proportion) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or n successes the exact limit is 0 or 1; the formula gets there only up to rounding.
    low = 0.0 if successes == 0 else max(0.0, centre - half_width)
    high = 1.0 if successes == trials else min(1.0, centre + half_width)
    return low, high


def bootstrap_over_queries(values_by_query: Mapping[str, Sequence[float]], confidence: float = 0.95,
                           resamples: int = 2000, seed: int = 0) -> Interval:
    """Percentile bootstrap of the mean score, resampling queries (not single answers) with replacement.

    Repeated trials of one query are not independent evidence, so a query is the unit: each query
    contributes the mean of its trials, and the statistic is the mean over the resampled queries.
    One query gives a zero-width interval: there is nothing to resample, which the report shows
    together with the number of queries.
    """
    per_query = [sum(values) / len(values) for values in values_by_query.values() if values]
    if not per_query:
        return Interval(math.nan, math.nan, math.nan, confidence)
    _z(confidence)
    estimate = sum(per_query) / len(per_query)
    rng = random.Random(seed)
    count = len(per_query)
    means = sorted(sum(rng.choices(per_query, k=count)) / count for _ in range(resamples))
    tail = (1 - confidence) / 2
    low = means[max(0, math.floor(tail * resamples))]
    high = means[min(resamples - 1, math.ceil((1 - tail) * resamples) - 1)]
    return Interval(estimate, low, high, confidence)
