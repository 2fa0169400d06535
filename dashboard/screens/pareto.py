"""Pareto page: the front over what answers (accuracy against the smallest budget reaching it), formats dominated
across budgets, and efficiency."""

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
    "reach_budget": st.column_config.NumberColumn("smallest budget reaching it"),
    "tokens": st.column_config.NumberColumn("tokens used there"),
    "dominated_by": st.column_config.TextColumn("dominated by", help="formats that reach at least this accuracy "
                                                "from no larger a budget, and do better in one"),
    "budgets": st.column_config.NumberColumn("budgets compared"),
}


def open_on_contexts(limit: int) -> None:
    """Chart click: show the clicked format's cut at the budget that reaches its accuracy on the Contexts page
    (runs before the rerun); the user's selection is kept for the way back (dashboard.detour)."""
    chosen = st.session_state.get("pareto_chart")
    points = chosen.selection.points if chosen else []
    if points and points[0].get("customdata"):
        format_name, _dominated_by, budget, *_rest = points[0]["customdata"]
        keep_selection("screens/pareto.py", "Pareto")
        st.session_state["formats"] = [str(format_name)]
        st.session_state["budget"] = min(int(budget), limit)
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
    accuracy = st.selectbox("Accuracy", list(ACCURACIES), key="pareto_accuracy", bind="query-params")
    try:
        frame = pareto_sweep(selection, budgets)
    except GraphContextError as error:
        show_error(error)
        return
    points, dominated, table = pareto_tables(selection, budgets, frame, accuracy)
    st.markdown("Each format's point is an accuracy it reaches and **the smallest swept budget that reaches it** "
                f"(budgets {', '.join(f'{budget:,}' for budget in budgets)}): what it costs to be that good. The "
                "front holds the points no other format beats on both. At one fixed budget every format fills "
                "about the budget, which would put a format that keeps the least on the front.")
    if points.empty:
        st.warning(f"**Nothing answers at any swept budget** (up to {max(budgets):,} tokens): no format reaches an "
                   f"{accuracy} above 0%. Add larger budgets under *Budgets for sweeps* in the sidebar.", icon="⚠️")
    else:
        st.plotly_chart(pareto_figure(points, accuracy, selection.approximate), width="stretch", key="pareto_chart",
                        on_select=lambda: open_on_contexts(selection.budget_limit), selection_mode="points")
        st.caption("Click a point to open that format's cut at the budget that reaches it on the Contexts page (a "
                   "banner there brings your own selection back). Green points are named; point at a grey one for its "
                   "formats (every point is in the table). Crosses are lossy formats (they drop information by "
                   "design).")
        show_table(points[["format", "lossless", "accuracy", "reach_budget", "tokens", "pareto_optimal",
                           "dominated_by"]], "pareto_points", hide_index=True, column_config=TABLE_COLUMNS)
    st.subheader("Dominated across budgets")
    st.caption("A format is dominated when another uses no more tokens and is at least as accurate at every "
               "tested budget, and is strictly better at one of them at least.")
    show_table(dominated[["format", "dominated_by", "budgets", "mean_tokens", "mean_accuracy"]]
               .sort_values(["mean_tokens", "format"]).reset_index(drop=True), "pareto_dominated", hide_index=True,
               column_config={"budgets": TABLE_COLUMNS["budgets"]})
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
