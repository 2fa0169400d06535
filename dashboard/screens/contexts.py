"""Contexts page: rendered contexts side by side, token by token, with the cut line at the inspected budget."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from dashboard.context_panel import draw_panel
from dashboard.sidebar import Selection, budget_controls, current
from dashboard.views.context_html import legend_html
from dashboard.views.markdown_text import escape_markdown

COMPARISONS = ("formats", "policies")  # several formats under the policy, or the first format under both


def panels(selection: Selection, comparison: str) -> list[tuple[str, str]]:
    """(format, policy) per panel: each chosen format under the chosen policy, or the first under both."""
    if comparison == "policies":
        return [(selection.formats[0], "raw"), (selection.formats[0], "record")]
    return [(name, selection.policy) for name in selection.formats]


def show() -> None:
    selection = current()
    st.title("Contexts")
    st.caption(f"{escape_markdown(selection.loaded.label)} · ordering {selection.ordering} · "
               f"{selection.tokenizer_label}. Query: *{escape_markdown(selection.question_shown)}*")
    controls = st.columns([2, 1, 1])
    comparison = controls[0].segmented_control("Compare", COMPARISONS, default="formats", key="compare",
                                               bind="query-params", help="formats: the chosen formats side by "
                                               "side; policies: the first format under raw and record") or "formats"
    colour = controls[1].toggle("Colour each token", value=True, key="token_colours", bind="query-params",
                                help="alternating backgrounds for the kept text's tokens; the text the cut drops is "
                                     "in no prompt, so it is shown dimmed and struck, uncoloured")
    whitespace = controls[2].toggle("Show whitespace", value=False, key="whitespace", bind="query-params")
    st.html(legend_html(colour))
    at_budget(selection, comparison, colour, whitespace)


@st.fragment
def at_budget(selection: Selection, comparison: str, colour: bool, whitespace: bool) -> None:
    """The budget controls and the panels they change: moving the budget reruns only this."""
    slider, number = st.columns([4, 1], vertical_alignment="bottom")
    selection = replace(selection, budget=budget_controls(slider, selection.budget_limit, number))
    chosen = panels(selection, comparison)
    for column, (format_name, policy) in zip(st.columns(len(chosen)), chosen):
        with column:
            draw_panel(selection, format_name, policy, colour, whitespace)


if __name__ == "__main__":  # run as a page by st.navigation
    show()
