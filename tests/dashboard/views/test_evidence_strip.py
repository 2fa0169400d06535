"""The evidence strip's markup: a tick per evidence unit at its share of the context, escaped titles."""

from __future__ import annotations

from core.metrics.placement import EvidenceStrip, EvidenceTick
from dashboard.views.context_html import CUT_COLOUR, KEPT_COLOUR
from dashboard.views.evidence_strip import strip_html


def test_ticks_sit_at_their_share_of_the_context_green_when_kept_red_when_cut():
    strip = EvidenceStrip(200, (EvidenceTick("n:a", 0, True), EvidenceTick("e:<img src=x>|r|b", 150, False)), 100)
    markup = strip_html(strip)
    assert markup.count('class="tick"') == 2 and markup.count('class="cut-line"') == 1
    assert f"left:0.000%;top:0;width:3px;height:14px;background:{KEPT_COLOUR}" in markup
    assert f"left:75.000%;top:0;width:3px;height:14px;background:{CUT_COLOUR}" in markup
    assert "left:50.000%" in markup and "<img" not in markup and "&lt;img src=x&gt;" in markup


def test_a_strip_without_a_cut_line_has_none():
    assert 'class="cut-line"' not in strip_html(EvidenceStrip(10, (), None))
