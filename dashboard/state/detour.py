"""A click-through's way back: the user's own selection, kept when a page opens a cut for them.

A Pareto point, a failing question or the walkthrough's "Show me" sets the sidebar to the cut it opens; the
selection the user had is kept here first (once: a second click-through keeps the first, the user's own), and
"Back to your selection" puts it back. Streamlit-free, so tests read it directly.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass

# The session keys that make up a sidebar selection (dashboard/sidebar.py, query_widgets.py, sources.py).
SELECTION_KEYS = ("source", "sample", "generator", "seed_mode", "seeds", "question", "query", "formats", "ordering",
                  "layout", "policy", "model", "tokenizer", "budget", "budgets")
QUERY_PARAMETER_PREFIX = "q_"
WORDS = {"seeds": "seeds", "query": "query", "formats": "formats", "ordering": "ordering", "policy": "policy",
         "budget": "budget", "sample": "sample", "seed_mode": "seeds by", "layout": "layout"}


@dataclass(frozen=True)
class Detour:
    """Where the user was (page path and title) and the selection values they had there."""

    origin_page: str
    origin_title: str
    saved: tuple[tuple[str, object], ...]

    def values(self) -> dict[str, object]:
        return dict(self.saved)


def selection_keys(state: Mapping[str, object]) -> list[str]:
    return [key for key in state if key in SELECTION_KEYS or str(key).startswith(QUERY_PARAMETER_PREFIX)]


def leave(state: Mapping[str, object], current: Detour | None, origin_page: str, origin_title: str) -> Detour:
    """The detour to keep before a click-through overwrites `state`: the one already kept (the user's own
    selection, from before the first click-through), else the selection `state` holds now."""
    if current is not None:
        return current
    return Detour(origin_page, origin_title,
                  tuple((key, _copy(state[key])) for key in selection_keys(state)))


def come_back(state: MutableMapping[str, object], detour: Detour) -> None:
    """Put the kept selection back into `state`. A query parameter the click-through added stays: its widget is
    not drawn under the kept query, and removing a key still bound to the URL breaks the page switch."""
    state.update({key: _copy(value) for key, value in detour.values().items()})


def changes(detour: Detour, state: Mapping[str, object]) -> list[str]:
    """What the click-through changed, in words: "budget 961 → 1,200", "formats pretty_json → csv"."""
    kept = detour.values()
    found = []
    for key, word in WORDS.items():
        if key in kept and key in state and kept[key] != state[key]:
            found.append(f"{word} {_shown(kept[key])} → {_shown(state[key])}")
    return found


def _shown(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def _copy(value: object) -> object:
    return list(value) if isinstance(value, list) else value
