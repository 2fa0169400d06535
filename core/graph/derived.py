"""Values derived from one graph object, built once and dropped with the graph.

A graph is immutable, so what is computed from it alone (its units in canonical order, their keys)
never changes; the largest graphs have 240,000 units, and building them again for every format a
page renders cost seconds. Keyed by the object's identity, not its content: hashing a graph reads its
whole canonical text, and equal graphs loaded twice are rare enough to build twice.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import TypeVar

Value = TypeVar("Value")

_VALUES: dict[tuple[int, str], object] = {}
_WATCHED: set[int] = set()
_LOCK = threading.Lock()  # the dashboard serves sessions from several threads


def derived(graph: object, name: str, build: Callable[[], Value]) -> Value:
    """`build()` the first time `name` is asked of this graph object; the same value after, until it is collected."""
    key = (id(graph), name)
    found = _VALUES.get(key, _MISSING)
    if found is not _MISSING:
        return found  # type: ignore[return-value]
    value = build()
    with _LOCK:
        if id(graph) not in _WATCHED:
            _WATCHED.add(id(graph))
            weakref.finalize(graph, _forget, id(graph))
        return _VALUES.setdefault(key, value)  # type: ignore[return-value]


def _forget(identity: int) -> None:
    with _LOCK:
        _WATCHED.discard(identity)
        for key in [key for key in _VALUES if key[0] == identity]:
            del _VALUES[key]


_MISSING = object()
