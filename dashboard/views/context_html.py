"""A rendered context as escaped HTML: token colouring, visible whitespace, the cut line and evidence marks.

Every piece of text is HTML-escaped before any markup is put around it; the functions are pure so
tests can check the markup directly.
"""

from __future__ import annotations

import html
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

TOKEN_COLOURS = ("#fde68a", "#bfdbfe", "#bbf7d0", "#fbcfe8", "#ddd6fe")
KEPT_COLOUR, CUT_COLOUR = "#16a34a", "#dc2626"
KEPT_BACKGROUND, CUT_BACKGROUND = "#dcfce7", "#fee2e2"
VISIBLE_WHITESPACE = {" ": "·", "\t": "→", "\n": "↵\n", "\r": "␍"}
PAGE_SIZE = 2400  # characters per page: about three boxes of text, so a budget change redraws little markup


@dataclass(frozen=True)
class Highlight:
    """An evidence record's character span and whether it survived the cut."""

    start: int
    end: int
    kept: bool


def page_bounds(text: str, size: int = PAGE_SIZE) -> list[tuple[int, int]]:
    """Consecutive (start, end) character ranges of about `size`, ending after a line break where one is near."""
    pages: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            line_end = text.rfind("\n", start + size // 2, end)
            end = line_end + 1 if line_end >= 0 else end
        pages.append((start, end))
        start = end
    return pages or [(0, 0)]


def pages_around(text: str, cut: int, size: int = PAGE_SIZE, lines_before: int = 6, reach: int = 360,
                 grid: Sequence[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Pages of about `size` where one page starts a few lines above `cut`, so the cut line shows at the top
    of its page without scrolling (a box of rendered HTML cannot be scrolled from the server).

    The other pages are those of `grid` (`page_bounds(text, size)`, which a caller may keep per text: paging a
    text of tens of megabytes again on every budget change took about 25 ms a panel); the page of the grid
    the anchor falls in is split there, and a short cut page takes the next grid page too."""
    floor = max(0, cut - reach)  # long or wrapped lines: at most ~6 lines of a narrow panel above the cut
    newline, found = cut, 0
    while found <= lines_before:
        previous = text.rfind("\n", floor, newline)
        if previous < 0:
            break
        newline, found = previous, found + 1
    anchor = 0 if floor == 0 and found <= lines_before else (newline + 1 if found else floor)
    grid = page_bounds(text, size) if grid is None else grid
    index = page_containing(grid, anchor)
    start, end = grid[index]
    pages = list(grid[:index]) + ([(start, anchor)] if start < anchor else [])
    following = index + 1
    if end - anchor < size // 2 and following < len(grid):  # a cut page of a few characters: add the next page
        end, following = grid[following][1], following + 1
    pages.append((anchor, end))
    pages.extend(grid[following:])
    return [page for page in pages if page[1] > page[0]] or [(0, len(text))]


def page_containing(pages: Sequence[tuple[int, int]], offset: int) -> int:
    """Index of the page holding `offset` (the last page for the end of the text)."""
    starts = [start for start, _ in pages]
    return max(0, min(bisect_right(starts, offset) - 1, len(pages) - 1))


def record_bounds(preamble: str, record_texts: Sequence[str]) -> np.ndarray:
    """Where each record starts in preamble + records + closing, in characters, and where the last one ends:
    record k spans [bounds[k], bounds[k + 1]). An array rather than a tuple per record: the largest graph's two
    renderings on screen have 480,000 records, and a panel reads the few that carry evidence."""
    lengths = np.fromiter(map(len, record_texts), dtype=np.int64, count=len(record_texts))
    return np.concatenate(([0], np.cumsum(lengths))) + len(preamble)


STYLE = ("<style>"
         + "".join(f".gcl-context .t{index}{{background:{colour}}}" for index, colour in enumerate(TOKEN_COLOURS))
         + f".gcl-context .k{{box-shadow:inset 0 -3px 0 {KEPT_COLOUR}}}.gcl-context .c{{box-shadow:inset 0 -3px 0 {CUT_COLOUR}}}"
         + f".gcl-context .kb{{background:{KEPT_BACKGROUND}}}.gcl-context .cb{{background:{CUT_BACKGROUND}}}"
         + ".gcl-context .dropped{opacity:0.45;text-decoration:line-through}</style>")


def context_html(text: str, *, cut: int | None, token_ends: Sequence[int] = (),
                 evidence: Sequence[Highlight] = (), show_whitespace: bool = False,
                 window: tuple[int, int] | None = None, cut_label: str = "cut") -> str:
    """`text[window]` as a <pre> block. Text from `cut` on is dimmed and struck, with a marked cut line.

    With `token_ends` (character offsets where tokens end) the kept text's tokens get alternating backgrounds;
    evidence spans get a green (kept) or red (cut) underline, or a background where tokens are not coloured.
    Marks are short class names styled once, and the dropped text is one wrapper, so a page of a few
    thousand tokens stays small for the browser to redraw on every budget change.
    """
    start, end = window if window is not None else (0, len(text))
    ordered = sorted(evidence, key=lambda item: item.start)
    evidence_starts = [item.start for item in ordered]
    # Tokens are coloured in the kept text only: what the cut drops is in no prompt, and the cut's page starts a
    # few lines above the cut, so its spans were nine in ten of what a budget step redrew (nvidia-jetson's two
    # panels under raw: 1,677 spans and 47 KB of markup, now 166 spans and 11 KB).
    coloured_to = end if cut is None else max(min(cut, end), start)
    points = {start, end}
    points.update(token_ends[bisect_right(token_ends, start):bisect_left(token_ends, coloured_to)])  # sorted: slice
    for item in ordered:
        points.update(offset for offset in (item.start, item.end) if start < offset < end)
    if cut is not None and start < cut < end:
        points.add(cut)
    boundaries = sorted(points)
    parts = []
    dropped = cut is not None and cut < start < end
    if dropped:
        parts.append('<span class="dropped">')
    for left, right in pairwise(boundaries):
        if cut is not None and left == cut:
            parts.append(_cut_line(cut_label) + '<span class="dropped">')
            dropped = True
        parts.append(_segment(text[left:right], left, token_ends if left < coloured_to else (), ordered,
                              evidence_starts, show_whitespace))
    if dropped:
        parts.append("</span>")
    if cut is not None and cut == end and end == len(text):
        parts.append(_cut_line(cut_label))
    return ('<div class="gcl-context">' + STYLE
            + '<pre style="white-space:pre-wrap;word-break:break-all;font-size:0.8em;line-height:1.5;'
            'margin:0;padding:0.5em;border:1px solid #e5e7eb;border-radius:4px;max-height:32em;overflow:auto">'
            + "".join(parts) + "</pre></div>")


def _segment(piece: str, offset: int, token_ends: Sequence[int], evidence: Sequence[Highlight],
             evidence_starts: Sequence[int], show_whitespace: bool) -> str:
    classes = []
    if token_ends:
        classes.append(f"t{bisect_right(token_ends, offset) % len(TOKEN_COLOURS)}")
    mark = _evidence_at(offset, evidence, evidence_starts)
    if mark is not None:
        classes.append("k" if mark.kept else "c")
        if not token_ends:
            classes.append("kb" if mark.kept else "cb")
    shown = html.escape(piece, quote=True)
    if show_whitespace:
        shown = "".join(VISIBLE_WHITESPACE.get(character, character) for character in shown)
    return f'<span class="{" ".join(classes)}">{shown}</span>' if classes else shown


def _evidence_at(offset: int, evidence: Sequence[Highlight], starts: Sequence[int]) -> Highlight | None:
    index = bisect_right(starts, offset) - 1
    if index >= 0 and evidence[index].start <= offset < evidence[index].end:
        return evidence[index]
    return None


def _cut_line(label: str) -> str:
    return (f'<span style="display:block;border-top:2px dashed {CUT_COLOUR};color:{CUT_COLOUR};'
            f'font-size:0.85em;margin:2px 0">✂ {html.escape(label)}</span>')


def legend_html(token_colours: bool) -> str:
    """A one-line key to the marks used by `context_html`."""
    tokens = ("".join(f'<span style="background:{colour}">tok</span>' for colour in TOKEN_COLOURS[:3])
              + " one background per token of the kept text · ") if token_colours else ""
    return (f'<div style="font-size:0.8em">{tokens}'
            f'<span style="box-shadow:inset 0 -3px 0 {KEPT_COLOUR}">evidence kept</span> · '
            f'<span style="box-shadow:inset 0 -3px 0 {CUT_COLOUR}">evidence cut</span> · '
            '<span style="opacity:0.45;text-decoration:line-through">dropped by the budget</span></div>')
