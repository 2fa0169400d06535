"""Records that carry several units (a node with its edges): grouping that keeps every prefix consistent.

A format whose record covers a node and some of its edges groups the given units by a carrier key
and orders the groups by the first position of any unit they hold. Rendering any in-order subset of
whole groups then yields the same groups in the same order, which is what makes every prefix of
records equal to the rendering of its own units.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from core.graph.units import Unit

K = TypeVar("K", bound=Hashable)


def grouped(units: Sequence[Unit], carrier: Callable[[Unit], K]) -> list[tuple[K, list[Unit]]]:
    """(carrier key, units in their given order) per carrier, ordered by each group's first unit."""
    groups: dict[K, list[Unit]] = {}
    for unit in units:
        key = carrier(unit)
        group = groups.get(key)
        if group is None:  # not setdefault(key, []): that builds a list for every unit
            groups[key] = [unit]
        else:
            group.append(unit)
    return list(groups.items())


def node_positions(units: Sequence[Unit]) -> dict[str, int]:
    """Node id -> position of its node unit among the given units."""
    return {unit.node.id: index for index, unit in enumerate(units) if unit.is_node}


def split_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) pairs; a trailing carriage return (a CRLF copy) is dropped."""
    return [(number, line.removesuffix("\r")) for number, line in enumerate(text.split("\n"), start=1)]
