"""A rendered context as escaped HTML: token colouring, visible whitespace, the cut line and evidence marks.

Every piece of text is HTML-escaped before any markup is put around it; the functions are pure so
tests can check the markup directly.
"""

from __future__ import annotations

import html
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Sequence

TOKEN_COLOURS = ("#fde68a", "#bfdbfe", "#bbf7d0", "#fbcfe8", "#ddd6fe")
KEPT_COLOUR, CUT_COLOUR = "#16a34a", "#dc2626"
KEPT_BACKGROUND, CUT_BACKGROUND = "#dcfce7", "#fee2e2"
VISIBLE_WHITESPACE = {" ": "·", "\t": "→", "\n": "↵\n", "\r": "␍"}
PAGE_SIZE = 6000  # characters per page: keeps a page's markup small however long the context is


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


def page_containing(pages: Sequence[tuple[int, int]], offset: int) -> int:
    """Index of the page holding `offset` (the last page for the end of the text)."""
    starts = [start for start, _ in pages]
    return max(0, min(bisect_right(starts, offset) - 1, len(pages) - 1))


def record_spans(preamble: str, record_texts: Sequence[str]) -> list[tuple[int, int]]:
    """Character span of each record in preamble + records + closing."""
    spans = []
    position = len(preamble)
    for text in record_texts:
        spans.append((position, position + len(text)))
        position += len(text)
    return spans


def context_html(text: str, *, cut: int | None, token_ends: Sequence[int] = (),
                 evidence: Sequence[Highlight] = (), show_whitespace: bool = False,
                 window: tuple[int, int] | None = None, cut_label: str = "cut") -> str:
    """`text[window]` as a <pre> block. Text from `cut` on is dimmed and struck, with a marked cut line.

    With `token_ends` (character offsets where tokens end) tokens get alternating backgrounds;
    evidence spans get a green (kept) or red (cut) underline, or background without token colours.
    """
    start, end = window if window is not None else (0, len(text))
    ordered = sorted(evidence, key=lambda item: item.start)
    evidence_starts = [item.start for item in ordered]
    points = {start, end}
    points.update(token_ends[bisect_right(token_ends, start):bisect_left(token_ends, end)])  # sorted: slice
    for item in ordered:
        points.update(offset for offset in (item.start, item.end) if start < offset < end)
    if cut is not None and start < cut < end:
        points.add(cut)
    boundaries = sorted(points)
    parts = []
    for left, right in zip(boundaries, boundaries[1:]):
        if cut is not None and left == cut:
            parts.append(_cut_line(cut_label))
        parts.append(_segment(text[left:right], left, cut, token_ends, ordered, evidence_starts, show_whitespace))
    if cut is not None and cut == end and end == len(text):
        parts.append(_cut_line(cut_label))
    return ('<pre style="white-space:pre-wrap;word-break:break-all;font-size:0.8em;line-height:1.5;'
            'margin:0;padding:0.5em;border:1px solid #e5e7eb;border-radius:4px;max-height:32em;overflow:auto">'
            + "".join(parts) + "</pre>")


def _segment(piece: str, offset: int, cut: int | None, token_ends: Sequence[int],
             evidence: Sequence[Highlight], evidence_starts: Sequence[int], show_whitespace: bool) -> str:
    styles = []
    if token_ends:
        styles.append(f"background:{TOKEN_COLOURS[bisect_right(token_ends, offset) % len(TOKEN_COLOURS)]}")
    mark = _evidence_at(offset, evidence, evidence_starts)
    if mark is not None:
        colour = KEPT_COLOUR if mark.kept else CUT_COLOUR
        styles.append(f"box-shadow:inset 0 -3px 0 {colour}")
        if not token_ends:
            styles.append(f"background:{KEPT_BACKGROUND if mark.kept else CUT_BACKGROUND}")
    if cut is not None and offset >= cut:
        styles.append("opacity:0.45;text-decoration:line-through")
    shown = html.escape(piece, quote=True)
    if show_whitespace:
        shown = "".join(VISIBLE_WHITESPACE.get(character, character) for character in shown)
    return f'<span style="{";".join(styles)}">{shown}</span>' if styles else shown


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
              + " one background per token · ") if token_colours else ""
    return (f'<div style="font-size:0.8em">{tokens}'
            f'<span style="box-shadow:inset 0 -3px 0 {KEPT_COLOUR}">evidence kept</span> · '
            f'<span style="box-shadow:inset 0 -3px 0 {CUT_COLOUR}">evidence cut</span> · '
            '<span style="opacity:0.45;text-decoration:line-through">dropped by the budget</span></div>')
