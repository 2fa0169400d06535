"""Values derived from one immutable object (a graph, a rendering, an accounting), built once and kept on it.

An object that cannot change never needs its derived values rebuilt: a graph's units in canonical order
and their keys, a rendering's record starts, an accounting's unit positions. The largest graphs have
240,000 units, and building these again for every format a page renders cost seconds. They live in the
object's own memo (its `__dict__`, as `functools.cached_property` does on a frozen dataclass), so they
are dropped with the object and nothing module-wide holds them: whoever keeps the object (a workbench's
renderings, the dashboard's graphs) keeps its memo, within the bounds it keeps the object. A memo is
keyed by the object's identity, not its content: hashing a graph reads its whole canonical text.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

Value = TypeVar("Value")
MEMO = "_derived"  # the owner's attribute that holds its memo; equality, hashing and repr ignore it


def memo_of(owner: object) -> dict[Hashable, Any]:
    """The owner's memo: a dict for values derived from it alone."""
    attributes = vars(owner)
    memo = attributes.get(MEMO)
    return memo if memo is not None else attributes.setdefault(MEMO, {})


def derived(owner: object, name: Hashable, build: Callable[[], Value]) -> Value:
    """`build()` the first time `name` is asked of this object; the same value after, for as long as it lives."""
    memo = memo_of(owner)
    found = memo.get(name, _MISSING)
    if found is not _MISSING:
        return found
    return memo.setdefault(name, build())  # two threads may build it; both get the first kept


_MISSING = object()
