"""Budget survival page: evidence survival, traversal accuracy and parse ok against the budget, per format."""

from __future__ import annotations

import streamlit as st

from core.analysis.what_answers import answering_in_sweep, what_answers
from core.errors import GraphContextError
from dashboard.analysis_cache import selection_markers, survival_chart, survival_sweep
from dashboard.analysis_controls import budget_list, show_error
from dashboard.sidebar import current, format_label
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

TABLE_COLUMNS = ["format", "policy", "budget", "budgeted_tokens", "records_kept", "records_total", "parse_ok",
                 "evidence_survival", "traversal_accuracy", "coverage_tokens", "first_dropped_keys"]




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
                f"{int(frame['hops'].iloc[0]):,} hops of the seeds; dotted: its **complete text** (grammar included); "
                f"solid black: the **inspected budget** ({selection.budget:,} tokens, the sidebar's). "
                "Hover a point for the exact figures and the first record the cut drops.")
    figure = survival_chart(selection, budgets, frame, markers, f"Survival against the budget ({', '.join(selection.formats)})"
                             + (" · ≈ approximate token counts" if selection.approximate else ""),
                             inspected=selection.budget)
    st.plotly_chart(figure, width="stretch", key="survival_chart")
    answering = answering_in_sweep(frame[frame["policy"] == selection.policy])
    if not answering or min(item.budget for item in answering) > selection.budget:
        st.warning(escape_markdown(what_answers(selection.budget, answering, "the swept budgets")).replace(
            "Nothing answers", f"Under the {selection.policy} policy nothing shown answers", 1)
            + " (A budget between two swept ones is not measured here: Contexts shows it exactly.)", icon="⚠️")
    else:
        st.markdown(f"**What answers** (traversal accuracy 100%, {selection.policy} policy): " + "; ".join(
            f"{escape_markdown(item.choice)} from {item.budget:,} tokens" for item in answering) + " (the smallest "
            "swept budget each answers at).")
    st.subheader("Markers")
    show_table(markers.assign(format=[format_label(name) for name in markers["format"]]), "survival_markers",
               hide_index=True)
    st.subheader("Every cut")
    show_table(frame[TABLE_COLUMNS], "survival_table", hide_index=True)


if __name__ == "__main__":  # run as a page by st.navigation
    show()
