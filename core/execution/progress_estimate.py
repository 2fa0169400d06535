"""The words of a progress bar for long work: units done, time so far and the time left at the pace so far."""

from __future__ import annotations


def seconds_left(done: int, total: int, elapsed: float) -> float | None:
    """The time the rest takes at the pace so far; None before the first unit is done or after the last."""
    if done <= 0 or done >= total:
        return None
    return elapsed * (total - done) / done


def progress_text(what: str, done: int, total: int, elapsed: float, unit: str = "cuts") -> str:
    """"Sweeping budgets: 120 of 1,320 cuts, 4 s so far, about 40 s left" (no estimate before the first unit)."""
    text = f"{what}: {done:,} of {total:,} {unit}, {elapsed:,.0f} s so far"
    left = seconds_left(done, total, elapsed)
    return text if left is None else f"{text}, about {left:,.0f} s left"
