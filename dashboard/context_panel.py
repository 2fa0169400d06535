"""One Contexts panel: a format's cut at the budget, core's figures for it, and the text around the cut line.

Drawn by the Contexts page (one per format or policy) and by the Walkthrough (the sidebar's current state).
"""

from __future__ import annotations

import json
import math
from contextlib import nullcontext

import streamlit as st

from core.budget import POLICIES
from core.budget.cut_report import cut_report
from core.budget.policies import Cut, cut
from core.formats import FORMATS
from core.metrics.cut_metrics import CutMetrics
from core.metrics.placement import cut_offset, evidence_strip, placement
from core.metrics.rank_order import rank_inversions
from core.metrics.seed_share import seed_token_share
from core.number_style import share
from core.tokens import TOKENIZERS
from core.tokens.models import approximate_count
from core.tokens.prefix_tokens import PrefixTokens
from core.tokens.token_spans import window_bounds
from dashboard import cache
from dashboard.renderings import accounting_for, rendering_key, spec_for
from dashboard.sidebar import Selection, format_label
from dashboard.views.context_html import Highlight, context_html, page_bounds, page_containing, pages_around
from dashboard.views.evidence_strip import strip_html
from dashboard.views.markdown_text import escape_markdown


def cut_metrics(selection: Selection, format_name: str, result: Cut) -> CutMetrics:
    """The workbench's metrics of the cut: parse, evidence survival, traversal accuracy on what the document holds
    (read from its kept units where the format allows, and remembered per document, so a budget step re-reads
    nothing: `Workbench.measure_cut`)."""
    return cache.workbench().measure_cut(spec_for(selection, format_name), result, selection.query,
                                         selection.solution)


def draw_panel(selection: Selection, format_name: str, policy: str, colour: bool, whitespace: bool) -> CutMetrics:
    """The panel; returns the figures it shows (the Contexts page says what answers when no panel does)."""
    accounting = accounting_for(selection, format_name)
    # Each try of the sections search renders and counts a document of the kept units: seconds on a large graph,
    # so say what runs (a spinner shows only after half a second).
    with st.spinner(f"Choosing {format_name}'s units ({policy}): each try renders and counts a document…",
                    show_time=True) \
            if not POLICIES.get(policy).prefix else nullcontext():
        result = cut(accounting, FORMATS.get(format_name), policy, selection.budget)
    figures = cut_metrics(selection, format_name, result)
    st.subheader(f"{format_label(format_name)} · {policy}")
    # A wrapping row of content-wide metrics: a value is never cut to "1,2…" in a narrow column.
    row = st.container(horizontal=True, wrap=True, gap="medium")
    row.metric("Tokens used / budget", f"{approximate_count(figures.budgeted_tokens, selection.approximate)} / "
               f"{selection.budget:,}", width="content")
    row.metric("Records kept / total", f"{figures.records_kept:,} / {figures.records_total:,}", width="content")
    row.metric("Parses", "yes" if figures.parse_ok else "no", help=escape_markdown(figures.decode_error) or None,
               width="content")
    if figures.evidence_total:
        row.metric("Evidence survival", share(figures.evidence_survival), width="content",
                   help=f"{figures.evidence_kept:,} of {figures.evidence_total:,} evidence units kept")
    else:  # core counts an empty answer as fully kept (1.0); a share of nothing reads better as none
        row.metric("Evidence survival", "—", width="content",
                   help="the query's answer is empty on this graph: there is no evidence to keep or lose")
    row.metric("Traversal accuracy", share(figures.traversal_accuracy), width="content",
               help="100% when the query on the decoded cut gives the full graph's answer")
    placed = placement(result, accounting, selection.evidence)
    row.metric("Dangling edges", f"{placed.dangling_edges:,}", width="content",
               help="kept edges whose endpoint node record was cut (formats that write nodes apart)")
    row.metric("Evidence position", "—" if not placed.evidence_positions else
               f"{share(placed.evidence_position_first)} · {share(placed.evidence_position_median)} · "
               f"{share(placed.evidence_position_last)}", width="content",
               help="first · median · last kept evidence unit, as a share of the context's tokens; spread "
                    f"{placed.evidence_spread_tokens:,} tokens between the first and the last")
    seed_share = seed_token_share(result, accounting, selection.seeds.node_ids)
    row.metric("Seed share", "—" if math.isnan(seed_share) else share(seed_share), width="content",
               help="the share of the cut's tokens that the seeds' own records take (a record carrying a seed "
                    "node counts whole; an edge that only mentions one does not): a kept seed can still starve")
    row.metric("Rank inversions", f"{rank_inversions(result, accounting):,}", width="content",
               help="pairs of kept units the cut writes out of the order the ordering ranked them in (0 for raw "
                    "and record, which keep a prefix; a selecting policy renders its units again)")
    strip = evidence_strip(result, accounting, selection.evidence)
    kept_ticks = sum(tick.kept for tick in strip.ticks)
    st.html(strip_html(strip, f"evidence: {kept_ticks:,} kept (green), {len(strip.ticks) - kept_ticks:,} cut (red) "
                              f"over {strip.total_tokens:,} tokens"
                              + ("" if strip.cut_at is None else f"; cut at token {strip.cut_at:,}")))
    if result.explanation:
        st.caption(escape_markdown(result.explanation))
    key = rendering_key(selection, format_name)
    full_text, _bounds = cache.text_layout(key, accounting)
    cut_at = cut_offset(accounting.rendering, result, full_text)
    panel_text(selection, format_name, policy, key, result, cut_at, colour, whitespace)
    # A callable is only called on click, so a large text is not sent with every rerun.
    st.download_button("Download the full text", lambda: full_text, file_name=f"{format_name}.txt",
                       mime="text/plain", key=f"download_{format_name}_{policy}", on_click="ignore")
    st.download_button("Download the cut report (JSON)", lambda: cut_report_json(selection, accounting, result),
                       file_name=f"{format_name}-{policy}-{selection.budget}-cut-report.json",
                       mime="application/json", key=f"cut_report_{format_name}_{policy}", on_click="ignore",
                       help="kept and cut unit keys, the evidence units lost, the next unit that did not fit")
    return figures


def cut_report_json(selection: Selection, accounting: PrefixTokens, result: Cut) -> str:
    """core.budget.cut_report of the panel's cut, for the sidebar's query."""
    report = cut_report(result, accounting, {selection.question_shown: frozenset(selection.evidence)})
    return json.dumps(report, indent=1, ensure_ascii=False) + "\n"


def window_token_ends(key: str, text: str, tokenizer: str, window: tuple[int, int]) -> tuple[int, ...]:
    """Token ends for the shown page only, tokenized between the forced pre-token boundaries around it
    (core.tokens.token_spans.window_bounds: BPE there matches the whole text's): tokenizing a 24-million-character
    text for its colours took gigabytes of offsets, and so did a 10-million-character line of compact JSON."""
    low, high = window_bounds(TOKENIZERS.get(tokenizer), text, *window)
    return tuple(low + offset for offset in cache.text_token_ends(f"{key}|{low}:{high}", text[low:high], tokenizer))


@st.cache_resource(max_entries=16, show_spinner=False)
def text_pages(key: str, _text: str) -> tuple[tuple[int, int], ...]:
    """The rendering's own pages (`page_bounds`), once per rendering rather than on every budget change."""
    return tuple(page_bounds(_text))


@st.fragment
def panel_text(selection: Selection, format_name: str, policy: str, key: str, result: Cut, cut_at: int,
               colour: bool, whitespace: bool) -> None:
    """The text around the cut line, one page at a time (turning pages reruns only this panel)."""
    accounting = accounting_for(selection, format_name)
    full_text, bounds = cache.text_layout(key, accounting)
    evidence_records = cache.evidence_records(accounting, selection.evidence)
    # The cut's page starts a few lines above the cut line; the others are the rendering's own pages.
    pages = pages_around(full_text, cut_at, grid=text_pages(key, full_text))
    cut_page = page_containing(pages, cut_at)
    page = cut_page
    if len(pages) > 1:
        # The key holds the cut's page, so moving the budget brings the view back to the cut line.
        page = st.number_input(f"Page (of {len(pages):,}; the cut is on page {cut_page + 1:,})", 1, len(pages),
                               cut_page + 1, key=f"page_{format_name}_{policy}_{pages[cut_page][0]}") - 1
    if result.selection:
        kept = set(result.kept_keys)
        records = result.rendering and accounting.rendering.records
        highlights = [Highlight(int(bounds[index]), int(bounds[index + 1]), set(records[index].unit_keys) <= kept)
                      for index in evidence_records]
    else:
        highlights = [Highlight(int(bounds[index]), int(bounds[index + 1]), index < result.records_kept)
                      for index in evidence_records]
    ends = window_token_ends(key, full_text, selection.tokenizer, pages[page]) if colour else ()
    # The label names the cut, not the budget: a budget change that keeps the same records sends the same markup,
    # which the browser then neither sanitizes nor redraws again (the budget is in the metrics above).
    label = f"cut ({policy}): {result.records_kept:,} of {result.records_total:,} records kept"
    st.html(context_html(full_text, cut=cut_at, token_ends=ends, evidence=highlights, show_whitespace=whitespace,
                         window=pages[page], cut_label=label))
