"""Tick values for a log axis of token budgets that never collide: 1, 2, 5 × 10ⁿ, written in the number style.

Plotly's own log ticks label every mantissa when the range is short ("500 600700800900") and bare digits
when it is long ("3 4 5 … 1000 2"); charts take these values and texts instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from core.number_style import whole

STEPS = (1, 2, 5)
SHORT_STEPS = (1, 1.5, 2, 3, 5, 7)  # where a range spans too little for 1-2-5 to give three ticks


def log_ticks(values: Iterable[float], least: int = 3) -> tuple[tuple[float, ...], tuple[str, ...]]:
    """Tick positions from 1-2-5 × 10ⁿ covering the positive `values` (at least `least` of them where the range
    allows, with finer steps on a short range), and their labels (1,000 not 1k)."""
    positive = [float(value) for value in values if value and float(value) > 0 and math.isfinite(float(value))]
    if not positive:
        return (), ()
    low, high = min(positive), max(positive)
    for steps in (STEPS, SHORT_STEPS):
        ticks = _ticks_between(low, high, steps)
        if len(ticks) >= least:
            break
    if len(ticks) < 2:  # a single value or a range inside one step: its ends are the ticks
        ticks = sorted({low, high})
    return tuple(ticks), tuple(whole(tick) if tick >= 1 else f"{tick:g}" for tick in ticks)


def _ticks_between(low: float, high: float, steps: tuple[float, ...]) -> list[float]:
    ticks = []
    for exponent in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1):
        for step in steps:
            tick = step * 10 ** exponent
            if low * 0.999 <= tick <= high * 1.001:
                ticks.append(float(round(tick, 6)))
    return sorted(set(ticks))
