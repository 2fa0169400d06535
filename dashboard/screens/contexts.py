"""Contexts page: rendered contexts side by side, token by token, with the cut line at the inspected budget."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from core.analysis.answering_budget import rendering_answering_budget
from core.analysis.what_answers import Answering, what_answers
from core.budget import DEFAULT_POLICIES, POLICIES
from core.budget.policies import cut, grammar_tokens
from core.formats import FORMATS
from dashboard.context_panel import draw_panel
from dashboard.large_graph import large
from dashboard.renderings import accounting_for
from dashboard.sidebar import Selection, budget_controls, current, formats_control
from dashboard.views.context_html import legend_html
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

COMPARISONS = ("formats", "policies")  # several formats under the policy, or the first format under several policies


ROWS_SHOWN = 2_000  # of the kept-units table: a large graph's units are counted in the caption, not all listed


def compared_policies(selection: Selection) -> tuple[str, ...]:
    """The prefix policies, and the sidebar's policy beside them when it is another."""
    return tuple(dict.fromkeys((*DEFAULT_POLICIES, selection.policy)))


def panels(selection: Selection, comparison: str, policies: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(format, policy) per panel: each chosen format under the chosen policy, or the first under each policy."""
    if comparison == "policies":
        return [(selection.formats[0], policy) for policy in policies or compared_policies(selection)]
    return [(name, selection.policy) for name in selection.formats]


def kept_units_table(selection: Selection, policies: tuple[str, ...]) -> pd.DataFrame:
    """Per unit of the first format's rendering (in its order): whether each policy's cut at the budget keeps it,
    and whether the query needs it."""
    format_name = selection.formats[0]
    accounting = accounting_for(selection, format_name)
    kept = {policy: set(cut(accounting, FORMATS.get(format_name), policy, selection.budget).kept_keys)
            for policy in policies}
    evidence = set(selection.evidence)
    return pd.DataFrame([{"unit": key, "evidence": key in evidence, **{policy: key in kept[policy] for policy in policies}}
                         for key in accounting.record_of_key])


def show() -> None:
    selection = current()
    st.title("Contexts")
    st.caption(f"{escape_markdown(selection.loaded.label)} · ordering {selection.ordering} · "
               f"{selection.tokenizer_label}. Query: *{escape_markdown(selection.question_shown)}*")
    controls = st.columns([2, 1, 1])
    comparison = controls[0].segmented_control("Compare", COMPARISONS, default="formats", key="compare",
                                               bind="query-params", help="formats: the chosen formats side by "
                                               "side; policies: the first format under raw, record and the "
                                               "sidebar's policy (or those you pick)") or "formats"
    colour = controls[1].toggle("Colour each token", value=True, key="token_colours", bind="query-params",
                                help="alternating backgrounds for the kept text's tokens; the text the cut drops is "
                                     "in no prompt, so it is shown dimmed and struck, uncoloured")
    whitespace = controls[2].toggle("Show whitespace", value=False, key="whitespace", bind="query-params")
    st.html(legend_html(colour))
    at_budget(selection, comparison, colour, whitespace)


def metric_style(panel_count: int) -> str:
    """Figures that are never cut short: a metric's value wraps at its spaces ("5% · 41% ·" / "93%") instead of
    ending in "…", and three or four panels side by side (a quarter of 1,280 px each) use a smaller figure.
    There the panels' headings take two lines' height each, so a heading on one line ("csv · record") starts
    its panel level with those that wrap ("compact_json · record" on two): every panel's rows line up."""
    size = "1.35rem" if panel_count >= 3 else "1.9rem"
    headings = ("[data-testid='stColumn'] [data-testid='stHeading'] h3 { font-size: 1.2rem !important;"
                " line-height: 1.3 !important; box-sizing: content-box; min-height: 2.6em; }" if panel_count >= 3 else "")
    return ("<style>[data-testid='stMetricValue'], [data-testid='stMetricValue'] * { white-space: normal !important;"
            " overflow: visible !important; text-overflow: clip !important; overflow-wrap: anywhere; }"
            f"[data-testid='stMetricValue'] {{ font-size: {size} !important; line-height: 1.25 !important; }}"
            f"{headings}</style>")


def answering_panels(selection: Selection, chosen: list[tuple[str, str]]) -> list[Answering]:
    """For each shown lossless format: the exact budget from which the record policy's cuts answer in this
    ordering and layout (core.analysis.answering_budget), the same figure the sweep, the advisor and the CLI give."""
    found = []
    for format_name in dict.fromkeys(name for name, _policy in chosen):
        format_ = FORMATS.get(format_name)
        if not format_.lossless:
            continue
        accounting = accounting_for(selection, format_name)
        budget = rendering_answering_budget(accounting, selection.graph, selection.query, selection.solution,
                                            grammar_tokens(format_, accounting.tokenizer))
        if budget is not None:
            found.append(Answering(f"{format_name} (record policy, {selection.ordering}, {selection.layout})",
                                   budget))
    return found


@st.fragment
def at_budget(selection: Selection, comparison: str, colour: bool, whitespace: bool) -> None:
    """The formats and budget controls and the panels they change: a change of either reruns only this."""
    formats = formats_control(st.container())
    if formats != selection.formats and large(selection.graph):
        st.rerun()  # a large graph's budget range and defaults come from the shown formats' counts: a full run
    slider, number = st.columns([4, 1], vertical_alignment="bottom")
    selection = replace(selection, formats=formats, budget=budget_controls(slider, selection.budget_limit, number))
    policies = compared_policies(selection)
    if comparison == "policies":
        policies = tuple(st.multiselect("Policies side by side", POLICIES.names(), default=list(policies),
                                        key="contexts_policies", help="the prefix policies cut the ordering; "
                                        "sections, density, knapsack and connected choose units and render them "
                                        "again")) or policies
    chosen = panels(selection, comparison, policies)
    st.html(metric_style(len(chosen)))
    note = st.container()  # above the panels, filled once they are measured
    answered = []
    for column, (format_name, policy) in zip(st.columns(len(chosen)), chosen):
        with column:
            answered.append(draw_panel(selection, format_name, policy, colour, whitespace).traversal_accuracy >= 1)
    if not any(answered):
        note.warning(escape_markdown(what_answers(selection.budget, answering_panels(selection, chosen),
                                                  "any budget for the shown lossless formats in this ordering and layout, under the record policy")),
                     icon=":material/search:")
    if comparison == "policies":
        table = kept_units_table(selection, policies)
        st.subheader(f"Units each policy keeps at {selection.budget:,} tokens ({selection.formats[0]})")
        st.caption(f"{len(table):,} units in the rendering's order; " + "; ".join(
            f"{policy} keeps {int(table[policy].sum()):,} ({int((table[policy] & table['evidence']).sum()):,} of "
            f"{int(table['evidence'].sum()):,} evidence)" for policy in policies))
        show_table(table.head(ROWS_SHOWN), "contexts_kept_units", hide_index=True)


if __name__ == "__main__":  # run as a page by st.navigation
    show()
