"""Budget survival page: evidence survival, traversal accuracy and parse ok against the budget, per format."""

from __future__ import annotations

import streamlit as st

from core.errors import GraphContextError
from dashboard.analysis_cache import selection_markers, survival_chart, survival_sweep
from dashboard.analysis_controls import budget_list, show_error
from dashboard.sidebar import current, format_label
from dashboard.views.markdown_text import escape_markdown

TABLE_COLUMNS = ["format", "policy", "budget", "budgeted_tokens", "records_kept", "records_total", "parse_ok",
                 "evidence_survival", "traversal_accuracy", "coverage_tokens", "first_dropped_keys"]


COLUMN_WORDS = {  # the table's headers in words, counts with thousands separators
    "budget": st.column_config.NumberColumn("budget", format="localized"),
    "budgeted_tokens": st.column_config.NumberColumn("tokens used", format="localized"),
    "records_kept": st.column_config.NumberColumn("records kept", format="localized"),
    "records_total": st.column_config.NumberColumn("records in all", format="localized"),
    "parse_ok": st.column_config.CheckboxColumn("parses"),
    "evidence_survival": st.column_config.NumberColumn("evidence survival", format="percent"),
    "traversal_accuracy": st.column_config.NumberColumn("traversal accuracy", format="%.0f"),
    "coverage_tokens": st.column_config.NumberColumn("D_k(S) tokens", format="localized"),
    "first_dropped_keys": st.column_config.TextColumn("first units dropped"),
}


def show() -> None:
    selection = current()
    budgets = budget_list()
    st.title("Budget survival")
    st.caption(f"{escape_markdown(selection.loaded.label)} · ordering **{selection.ordering}** (switch it in the "
               f"sidebar) · layout {selection.layout} · {selection.tokenizer_label}. Query: "
               f"*{escape_markdown(selection.question_shown)}*")
    try:
        frame = survival_sweep(selection, budgets)
        markers = selection_markers(selection)
    except GraphContextError as error:
        show_error(error)
        return
    st.markdown("Dashed vertical lines: each format's **D_k(S)**, the budget that holds every unit within "
                f"{int(frame['hops'].iloc[0])} hops of the seeds; dotted: its **complete text** (grammar included). "
                "Hover a point for the exact figures and the first record the cut drops.")
    figure = survival_chart(selection, budgets, frame, markers, f"Survival against the budget ({', '.join(selection.formats)})"
                             + (" · ≈ approximate token counts" if selection.approximate else ""))
    st.plotly_chart(figure, width="stretch", key="survival_chart")
    st.subheader("Markers")
    st.dataframe(markers.assign(format=[format_label(name) for name in markers["format"]]), hide_index=True,
                 width="stretch", key="survival_markers", column_config={
                     "coverage_tokens": st.column_config.NumberColumn("D_k(S) tokens"),
                     "full_tokens": st.column_config.NumberColumn("complete text tokens")})
    st.subheader("Every cut")
    st.dataframe(frame[TABLE_COLUMNS], hide_index=True, width="stretch", key="survival_table",
                 column_config=COLUMN_WORDS)


if __name__ == "__main__":  # run as a page by st.navigation
    show()
