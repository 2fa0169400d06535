"""Pareto page: tokens against accuracy per budget, the non-dominated front, dominated formats and efficiency."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.errors import GraphContextError
from core.pareto_tables import ACCURACIES, best_lossless, dominated_formats, efficiency_table, pareto_points
from core.registry import FORMATS
from dashboard import analysis_cache
from dashboard.analysis_controls import budget_list, show_error
from dashboard.sidebar import Selection, current
from dashboard.views.markdown_text import escape_markdown

HIGHLIGHT = "background-color: #dcfce7; font-weight: 600"
OPEN_REQUEST = "pareto_open_contexts"
TABLE_COLUMNS = {  # words instead of snake_case, figures rounded, thousands separated
    "format": st.column_config.TextColumn("format"),
    "lossless": st.column_config.CheckboxColumn("lossless"),
    "tokens": st.column_config.NumberColumn("tokens used", format="localized"),
    "accuracy": st.column_config.NumberColumn("accuracy", format="%.2f"),
    "pareto_optimal": st.column_config.CheckboxColumn("on the front"),
    "dominated_by": st.column_config.TextColumn("dominated by", help="formats using no more tokens that are at "
                                                "least as accurate, and better in one"),
    "efficiency": st.column_config.NumberColumn("accuracy per 1,000 tokens", format="%.3f"),
    "budgets": st.column_config.NumberColumn("budgets compared"),
    "mean_tokens": st.column_config.NumberColumn("mean tokens", format="localized"),
    "mean_accuracy": st.column_config.NumberColumn("mean accuracy", format="%.2f"),
}


def pareto_sweep(selection: Selection, budgets: tuple[int, ...]) -> pd.DataFrame:
    """Every registered format under the sidebar's ordering, layout and policy, at every budget of the list."""
    return analysis_cache.sweep(selection, tuple(FORMATS.names()), (selection.ordering,), selection.layout,
                                (selection.policy,), budgets)


def pareto_figure(points: pd.DataFrame, accuracy: str, budget: int, approximate: bool = False) -> go.Figure:
    """Formats as points (lossy: crosses), the front as a line through its points in token order.

    `approximate`: the counts only estimate the chosen model's (a stand-in tokenizer), said on the axis.
    """
    figure = go.Figure()
    for optimal, lossless in ((True, True), (True, False), (False, True), (False, False)):
        part = points[(points["pareto_optimal"] == optimal) & (points["lossless"] == lossless)]
        if part.empty:
            continue
        figure.add_scatter(
            # Names on hover only: at one budget many formats share a point, and printed labels clump.
            x=part["tokens"], y=part["accuracy"], mode="markers",
            customdata=part[["format", "dominated_by"]].values, name=("front" if optimal else "dominated")
            + ("" if lossless else ", lossy"),
            marker={"size": 12, "symbol": "circle" if lossless else "x",
                    "color": "#16a34a" if optimal else "#9ca3af"},
            hovertemplate="%{customdata[0]}<br>%{x:,.0f} tokens<br>" + accuracy + " %{y:.3f}"
                          "<br>dominated by: %{customdata[1]}<extra></extra>")
    front = points[points["pareto_optimal"]].sort_values("tokens")
    figure.add_scatter(x=front["tokens"], y=front["accuracy"], mode="lines", name="non-dominated front",
                       line={"color": "#16a34a", "dash": "dash"}, hoverinfo="skip")
    figure.update_layout(title=f"Tokens used against {accuracy} at a budget of {budget:,} tokens",
                         xaxis_title="budgeted tokens used" + (" (≈ approximate)" if approximate else ""), yaxis_title=accuracy, legend_title=None,
                         clickmode="event+select")
    figure.update_yaxes(range=[-0.05, 1.05], tickformat=".0%" if accuracy == "evidence survival" else ".1f")
    figure.update_xaxes(tickformat=",d")
    return figure


def open_on_contexts(budget: int, limit: int) -> None:
    """Chart click: show the clicked format's cut at this budget on the Contexts page (runs before the rerun)."""
    chosen = st.session_state.get("pareto_chart")
    points = chosen.selection.points if chosen else []
    if points and points[0].get("customdata"):
        st.session_state["formats"] = [str(points[0]["customdata"][0])]
        st.session_state["budget"] = min(budget, limit)
        st.session_state[OPEN_REQUEST] = True


def unbound_query_params() -> dict[str, str]:
    """The URL parameters no widget is bound to (switch_page may only carry those; bound widgets write theirs back)."""
    from streamlit.runtime.state.session_state_proxy import get_session_state  # internal API

    with get_session_state().query_params() as params:
        return {key: value for key, value in st.query_params.to_dict().items() if not params.is_bound(key)}


def show() -> None:
    if st.session_state.pop(OPEN_REQUEST, False):  # before this page binds any widget to the URL
        st.switch_page("screens/contexts.py", query_params=unbound_query_params())
    selection = current()
    budgets = budget_list()
    st.title("Pareto")
    st.caption(f"{escape_markdown(selection.loaded.label)} · ordering {selection.ordering} · policy "
               f"{selection.policy} · layout {selection.layout} · {selection.tokenizer_label}. Query: "
               f"*{escape_markdown(selection.query.question)}*")
    controls = st.columns(2)
    accuracy = controls[0].selectbox("Accuracy", list(ACCURACIES), key="pareto_accuracy", bind="query-params")
    budget = controls[1].selectbox("Budget", budgets, index=len(budgets) // 2, format_func="{:,} tokens".format,
                                   key="pareto_budget", bind="query-params")
    try:
        frame = pareto_sweep(selection, budgets)
    except GraphContextError as error:
        show_error(error)
        return
    points = pareto_points(frame, accuracy)
    shown = points[points["budget"] == budget][["format", "lossless", "tokens", "accuracy", "pareto_optimal",
                                                 "dominated_by", "efficiency"]].reset_index(drop=True)
    st.plotly_chart(pareto_figure(shown, accuracy, budget, selection.approximate), width="stretch", key="pareto_chart", on_select=lambda:
                    open_on_contexts(budget, selection.budget_limit), selection_mode="points")
    st.caption("Click a point to open that format's cut at this budget on the Contexts page. Crosses are lossy "
               "formats (they drop information by design).")
    st.dataframe(shown.sort_values(["tokens", "format"]).reset_index(drop=True), hide_index=True, width="stretch", key="pareto_points",
                 column_config=TABLE_COLUMNS)
    st.subheader("Dominated across budgets")
    st.caption("A format is dominated when another uses no more tokens and is at least as accurate at every "
               "tested budget, and is strictly better at one of them at least.")
    dominated = dominated_formats(frame, accuracy)
    st.dataframe(dominated[["format", "dominated_by", "budgets", "mean_tokens", "mean_accuracy"]]
                 .sort_values(["mean_tokens", "format"]).reset_index(drop=True), hide_index=True, width="stretch", key="pareto_dominated",
                 column_config=TABLE_COLUMNS)
    st.subheader("Efficiency")
    table = efficiency_table(frame, accuracy)
    best = best_lossless(table)
    if best is not None:
        st.markdown(f"Most efficient lossless format: **{best}** (highlighted). RDS, after the CKG benchmark's "
                    "Reasoning Density Score: mean accuracy divided by mean tokens.")
    styled = table.style.apply(lambda row: [HIGHLIGHT if row["format"] == best else ""] * len(row), axis=1)
    st.dataframe(styled, hide_index=True, width="stretch", key="pareto_efficiency", column_config={
        **TABLE_COLUMNS, "rds": st.column_config.NumberColumn("RDS", format="%.3e",
                                                              help="mean accuracy / mean tokens (CKG benchmark)")})


if __name__ == "__main__":  # run as a page by st.navigation
    show()
