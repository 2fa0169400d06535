"""Numbers in a question that state a parameter ("3 hops", "depth 2"), which seed matching must not read as
node ids (nvidia-jetson has a node "3"), and the hop count a question states.

Which query a question asks is read in one place, `core.questions.reading`.
"""

from __future__ import annotations

import re

# Question text is untrusted: every white-space run and digit run below is possessive, and no two
# neighbouring pieces match the same character, so a failed search is linear (`\s*(?:of)?\s*` was
# quadratic in a long run of spaces).
_HOPS = re.compile(r"\b(\d++)(?:\s++|\s*+-\s*+)hops?\b", re.IGNORECASE)  # "within 3 hops", "3-hop"
# A number followed by a unit of distance or count, or following a parameter's name: a parameter, not a node.
_PARAMETER_NUMBERS = (
    re.compile(r"\b(\d++)(?:\s++|\s*+-\s*+)(?:hops?|levels?|steps?|degrees?|layers?)\b", re.IGNORECASE),
    re.compile(r"\b(?:hops?|depth|distance|radius|k)\s*+(?:=|:|of)?+\s*+(\d++)\b", re.IGNORECASE),
)


def stated_hops(question: str) -> int | None:
    """The hop count the question states ("within 3 hops", "a 2-hop neighbourhood"), or None."""
    found = _HOPS.search(question)
    return int(found.group(1)) if found else None


def parameter_number_spans(question: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of each number in `question` that states a parameter (a hop count, a depth), sorted."""
    spans = {match.span(1) for pattern in _PARAMETER_NUMBERS for match in pattern.finditer(question)}
    return tuple(sorted(spans))
