"""The evidence-position strip as escaped HTML: a thin bar the length of the context, a tick per evidence unit.

Kept evidence ticks are green, cut ones red, and a dark line marks where the cut falls. Positions
come from `core.metrics.placement.evidence_strip` (token offsets in the complete rendering); unit keys are
user text and are escaped before they go into a title.
"""

from __future__ import annotations

import html

from core.metrics.placement import EvidenceStrip
from dashboard.views.context_html import CUT_COLOUR, KEPT_COLOUR


def _left(offset: int, total: int) -> str:
    return f"{100 * offset / max(total, 1):.3f}%"


def strip_html(strip: EvidenceStrip, label: str = "") -> str:
    ticks = "".join(
        f'<div class="tick" title="{html.escape(tick.key)} at token {tick.offset:,} '
        f'({"kept" if tick.kept else "cut"})" style="position:absolute;left:{_left(tick.offset, strip.total_tokens)};'
        f'top:0;width:3px;height:14px;background:{KEPT_COLOUR if tick.kept else CUT_COLOUR}"></div>'
        for tick in strip.ticks)
    cut_line = "" if strip.cut_at is None else (
        f'<div class="cut-line" title="cut at token {strip.cut_at:,}" style="position:absolute;'
        f'left:{_left(strip.cut_at, strip.total_tokens)};top:-3px;width:2px;height:20px;background:#111827"></div>')
    caption = html.escape(label or f"{len(strip.ticks)} evidence units over {strip.total_tokens:,} tokens")
    return (f'<div class="evidence-strip" style="position:relative;height:14px;margin:8px 0 2px 0;'
            f'background:#e5e7eb;border-radius:2px">{ticks}{cut_line}</div>'
            f'<div style="font-size:0.75rem;color:#6b7280">{caption}</div>')
