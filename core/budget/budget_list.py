"""Budget lists as people type them: the one grammar the CLI's `--budgets` and the dashboard's budget fields read.

Grammar: one or more budgets separated by commas and/or whitespace (`512,1024`, `512 1024`, `512, 1024`).
A budget is a whole number of tokens from 1 to 10,000,000, written in digits, optionally grouped with
underscores as Python writes numbers (`16_384`). There is no `k` suffix (no parser before this one took it).

The list is read as a set of cut points: sorted ascending, a repeat dropped. Every consumer draws or
tables budgets in ascending order; none gives the order a meaning.

0 is refused: no format fits in zero tokens (not even its empty document's grammar), so a budget of 0
is the same empty cut for every format, ordering and policy; it measures nothing, and the dashboard's
budget axes are logarithmic, where 0 cannot be drawn.
"""

from __future__ import annotations

import re

from core.errors import ParameterError

MAX_BUDGET = 10_000_000
PAGE_BUDGETS = 24  # the most budgets the dashboard's sweep pages take: each draws one point per budget per curve
# So the longest budget list a page accepts is about 200 characters in its URL. A URL of ~100 KB (25,000
# budgets) is refused by the web server itself with HTTP 400 before the app sees it; the app is unharmed
# and that refusal is right (D30): no valid state needs such a URL.
WHERE = "budget list"
EXAMPLE = "512, 1024, 4096"

# Safe on untrusted text (URL parameters): one class; digit runs separated by "_", which no digit run holds.
_SEPARATORS = re.compile(r"[,\s]+")
_WHOLE_NUMBER = re.compile(r"[0-9]+(?:_[0-9]+)*")


def parse_budgets(text: str, *, most: int | None = None) -> tuple[int, ...]:
    """The budgets in `text` (see the module's grammar), ascending and without repeats.

    `most` caps how many distinct budgets may be given (a page draws one point per budget).
    Raises ParameterError saying which part is wrong and how to write it.
    """
    parts = [part for part in _SEPARATORS.split(text.strip()) if part]
    if not parts:
        raise ParameterError("no budget was given", WHERE, f"type budgets in tokens, like {EXAMPLE}")
    budgets = {_budget(part) for part in parts}
    if most is not None and len(budgets) > most:
        raise ParameterError(f"{len(budgets)} budgets were given", WHERE, f"give at most {most}")
    return tuple(sorted(budgets))


def _budget(part: str) -> int:
    if not _WHOLE_NUMBER.fullmatch(part):
        separator = re.search(r"[;:|/]", part)
        if separator and all(_WHOLE_NUMBER.fullmatch(piece) for piece in re.split(r"[;:|/]", part) if piece):
            raise ParameterError(f"{separator.group()!r} does not separate budgets (in {part!r})", WHERE,
                                 f"separate budgets with commas or spaces, like {EXAMPLE}")
        if part.startswith("-") and _WHOLE_NUMBER.fullmatch(part[1:]):
            raise ParameterError(f"budget {part} is negative", WHERE,
                                 f"give whole numbers of tokens from 1 to {MAX_BUDGET:,}")
        raise ParameterError(f"{part!r} is not a whole number of tokens", WHERE,
                             f"write budgets in digits, like {EXAMPLE}")
    if len(part.replace("_", "").lstrip("0")) > len(str(MAX_BUDGET)):  # int() of 4,300+ digits raises
        raise ParameterError(f"budget {part[:20]}... ({len(part):,} digits) is above {MAX_BUDGET:,} tokens", WHERE,
                             f"give whole numbers of tokens from 1 to {MAX_BUDGET:,}")
    value = int(part)
    if value == 0:
        raise ParameterError("budget 0 keeps nothing in any format", WHERE,
                             "give budgets of 1 token or more (a cut at 0 tokens is empty for every format)")
    if value > MAX_BUDGET:
        raise ParameterError(f"budget {value:,} is above {MAX_BUDGET:,} tokens", WHERE,
                             f"give whole numbers of tokens from 1 to {MAX_BUDGET:,}")
    return value
