"""Pareto page: tokens against accuracy per budget, the non-dominated front, dominated formats and efficiency."""

from __future__ import annotations

import streamlit as st

from core.analysis.pareto_tables import ACCURACIES, best_lossless
from core.errors import GraphContextError
from dashboard.analysis_cache import pareto_sweep, pareto_tables
from dashboard.analysis_controls import budget_list, show_error
from dashboard.detour import keep_selection
from dashboard.sidebar import current
from dashboard.url_state import unbound_query_params
from dashboard.views.charts import pareto_figure
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

OPEN_REQUEST = "pareto_open_contexts"
TABLE_COLUMNS = {  # words instead of snake_case; the figures in the number style (dashboard.views.tables)
    "tokens": st.column_config.NumberColumn("tokens used"),
    "dominated_by": st.column_config.TextColumn("dominated by", help="formats using no more tokens that are at "
                                                "least as accurate, and better in one"),
    "budgets": st.column_config.NumberColumn("budgets compared"),
}


def open_on_contexts(budget: int, limit: int) -> None:
    """Chart click: show the clicked format's cut at this budget on the Contexts page (runs before the rerun)."""
    chosen = st.session_state.get("pareto_chart")
    points = chosen.selection.points if chosen else []
    if points and points[0].get("customdata"):
        keep_selection("screens/pareto.py", "Pareto")
        st.session_state["formats"] = [str(points[0]["customdata"][0])]
        st.session_state["budget"] = min(budget, limit)
        st.session_state[OPEN_REQUEST] = True


def show() -> None:
    if st.session_state.pop(OPEN_REQUEST, False):  # before this page binds any widget to the URL
        st.switch_page("screens/contexts.py", query_params=unbound_query_params())
    selection = current()
    budgets = budget_list()
    st.title("Pareto")
    st.caption(f"{escape_markdown(selection.loaded.label)} · ordering {selection.ordering} · policy "
               f"{selection.policy} · layout {selection.layout} · {selection.tokenizer_label}. Query: "
               f"*{escape_markdown(selection.question_shown)}*")
    controls = st.columns(2)
    accuracy = controls[0].selectbox("Accuracy", list(ACCURACIES), key="pareto_accuracy", bind="query-params")
    budget = controls[1].selectbox("Budget", budgets, index=len(budgets) // 2, format_func="{:,} tokens".format,
                                   key="pareto_budget", bind="query-params")
    try:
        frame = pareto_sweep(selection, budgets)
    except GraphContextError as error:
        show_error(error)
        return
    points, dominated, table = pareto_tables(selection, budgets, frame, accuracy)
    shown = points[points["budget"] == budget][["format", "lossless", "tokens", "accuracy", "pareto_optimal",
                                                 "dominated_by", "efficiency"]].reset_index(drop=True)
    st.plotly_chart(pareto_figure(shown, accuracy, budget, selection.approximate), width="stretch", key="pareto_chart", on_select=lambda:
                    open_on_contexts(budget, selection.budget_limit), selection_mode="points")
    st.caption("Click a point to open that format's cut at this budget on the Contexts page. Crosses are lossy "
               "formats (they drop information by design).")
    show_table(shown.sort_values(["tokens", "format"]).reset_index(drop=True), "pareto_points", hide_index=True,
               column_config=TABLE_COLUMNS)
    st.subheader("Dominated across budgets")
    st.caption("A format is dominated when another uses no more tokens and is at least as accurate at every "
               "tested budget, and is strictly better at one of them at least.")
    show_table(dominated[["format", "dominated_by", "budgets", "mean_tokens", "mean_accuracy"]]
               .sort_values(["mean_tokens", "format"]).reset_index(drop=True), "pareto_dominated", hide_index=True,
               column_config=TABLE_COLUMNS)
    st.subheader("Efficiency")
    best = best_lossless(table)
    if best is not None:
        st.markdown(f"Most efficient lossless format: **{best}** (highlighted). RDS, after the CKG benchmark's "
                    "Reasoning Density Score: mean accuracy divided by mean tokens.")
    show_table(table, "pareto_efficiency", highlighted=lambda row: row["format"] == best, hide_index=True,
               column_config={**TABLE_COLUMNS, "rds": st.column_config.NumberColumn(
                   "RDS", help="mean accuracy / mean tokens (CKG benchmark), per 1,000 tokens")})


if __name__ == "__main__":  # run as a page by st.navigation
    show()
