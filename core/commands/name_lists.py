"""How a command names the choices it knows when one typed is not among them: all of a few; of many, the closest
to what was typed, the first few and how many there are (the full list is in --help)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

LISTED = 10  # up to this many names are all listed
SHOWN = 6  # of more, this many


def known_names(unknown: Sequence[str], names: Sequence[str]) -> str:
    """Every name when there are few; else the closest to what was typed, the first few and how many there are."""
    if len(names) <= LISTED:
        return ", ".join(names)
    close = [name for typed in unknown for name in difflib.get_close_matches(typed, names, n=3)]
    shown = list(dict.fromkeys([*close, *names]))[:SHOWN]
    return f"{', '.join(shown)}, … ({len(names)} in all; --help lists them)"
