"""Which of two controls that mirror one value (a budget slider and its exact number) the user moved.

A browser sends every control's value with each request, and applies the server's redraws in order, some
after the user has pressed again. So a request can carry the other control's old value (an echo), which
looks like a change of its own: three quick presses then lost the last two. The server remembers, per
control, the values it may still echo (what it reported before being redrawn, and what it was redrawn
to since): such a value is ignored, any other difference from the drawn value is the user's move.
Every control but the one just moved is redrawn with the chosen value, so once the redraws have all
arrived both show it; the moved one is left alone (a redraw would pull it back mid-press) unless an
earlier redraw of it may still arrive. Limit: a value pressed again while a redraw of it is under way
cannot be told from an echo (an arrow key or a typed number moves on, so quick presses do not repeat).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Control = Literal["slider", "number"]


@dataclass(frozen=True)
class Mirror:
    """What the server last drew in both controls, the values each may still echo, and which one moved."""

    drawn: int
    slider_echoes: frozenset[int] = frozenset()
    number_echoes: frozenset[int] = frozenset()
    moved: Control | None = None
    redraw: frozenset[Control] = frozenset(("slider", "number"))


def reconcile(mirror: Mirror, slider: int | None, number: int | None, low: int, high: int) -> Mirror:
    """The value to draw in both controls after a request reporting `slider` and `number` (None: not reported).

    The slider wins when both moved (its presses are the quick ones); a value outside [low, high] is ignored.
    """
    chosen = mirror.drawn
    moved: Control | None = None
    if slider is not None and _moved(slider, mirror.drawn, mirror.slider_echoes, low, high):
        chosen, moved = slider, "slider"
    elif number is not None and _moved(number, mirror.drawn, mirror.number_echoes, low, high):
        chosen, moved = number, "number"
    # The moved control is redrawn too while an earlier redraw of it may still arrive and pull it back.
    reports: dict[Control, tuple[int | None, frozenset[int]]] = {
        "slider": (slider, mirror.slider_echoes), "number": (number, mirror.number_echoes)}
    redraw = frozenset(name for name, (reported, echoes) in reports.items()
                       if name != moved or (echoes and reported != mirror.drawn))
    slider_echoes, number_echoes = (_echoes(reported, chosen, mirror.drawn, echoes, name in redraw)
                                    for name, (reported, echoes) in reports.items())
    return Mirror(chosen, slider_echoes, number_echoes, moved, redraw)


def budget_range_top(complete_tokens: Iterable[int]) -> int:
    """The top of the budget controls' range: 5% above the largest complete text, in whole hundreds, at least 100."""
    return max(100, math.ceil(max(complete_tokens, default=0) * 1.05 / 100) * 100)


def needs_drawing(control: Control, mirror: Mirror) -> bool:
    """Whether `control` is to be redrawn with `mirror.drawn`: every one but the one the user just moved, unless
    an earlier redraw of that one may still arrive."""
    return control in mirror.redraw


def _moved(reported: int, drawn: int, echoes: frozenset[int], low: int, high: int) -> bool:
    return reported != drawn and reported not in echoes and low <= reported <= high


def _echoes(reported: int | None, chosen: int, drawn: int, echoes: frozenset[int], redrawn: bool) -> frozenset[int]:
    """A control showing the drawn value has received the redraws so far: nothing left to echo. One redrawn now
    may still send what it reported, then the chosen value once the server has moved on."""
    if reported == drawn:
        echoes = frozenset()
    if redrawn and reported != chosen:  # a redraw to the value it shows changes nothing there
        echoes = echoes | {value for value in (reported, chosen) if value is not None}
    return echoes
