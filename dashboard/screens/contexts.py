"""Contexts page: rendered contexts side by side, token by token, with the cut line at the inspected budget."""

from __future__ import annotations

import streamlit as st

from dashboard.sidebar import Selection, current
from dashboard.views.context_html import legend_html
from dashboard.views.context_panel import draw_panel
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
    st.caption(f"{escape_markdown(selection.loaded.label)} · budget **{selection.budget:,}** tokens · "
               f"ordering {selection.ordering} · {selection.tokenizer_label}. Query: "
               f"*{escape_markdown(selection.query.question)}*")
    controls = st.columns([2, 1, 1])
    comparison = controls[0].segmented_control("Compare", COMPARISONS, default="formats", key="compare",
                                               bind="query-params", help="formats: the chosen formats side by "
                                               "side; policies: the first format under raw and record") or "formats"
    colour = controls[1].toggle("Colour each token", value=True, key="token_colours", bind="query-params")
    whitespace = controls[2].toggle("Show whitespace", value=False, key="whitespace", bind="query-params")
    st.html(legend_html(colour))
    chosen = panels(selection, comparison)
    for column, (format_name, policy) in zip(st.columns(len(chosen)), chosen):
        with column:
            draw_panel(selection, format_name, policy, colour, whitespace)


if __name__ == "__main__":  # run as a page by st.navigation
    show()
