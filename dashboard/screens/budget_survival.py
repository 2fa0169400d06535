"""Budget survival page: evidence survival, traversal accuracy and parse ok against the budget, per format."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import streamlit as st

from core.budget import POLICIES
from core.errors import GraphContextError
from core.survival_curves import SURVIVAL_METRICS, survival_curves
from dashboard import analysis_cache
from dashboard.analysis_controls import budget_list, show_error
from dashboard.sidebar import Selection, current, format_label
from dashboard.views.markdown_text import escape_markdown

PALETTE = px.colors.qualitative.D3
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


def survival_sweep(selection: Selection, budgets: tuple[int, ...]) -> pd.DataFrame:
    """The chosen formats under the chosen ordering and both policies, at every budget of the list."""
    return analysis_cache.sweep(selection, selection.formats, (selection.ordering,), selection.layout, POLICIES,
                                budgets)


def survival_figure(frame: pd.DataFrame, markers: pd.DataFrame, title: str) -> go.Figure:
    """Curves per metric (rows) and policy (columns), one line per format, with D_k(S) and full-text markers."""
    curves = survival_curves(frame)
    colours = {name: PALETTE[index % len(PALETTE)] for index, name in enumerate(dict.fromkeys(curves["format"]))}
    figure = px.line(curves, x="budget", y="value", color="format", facet_row="metric", facet_col="policy",
                     markers=True, log_x=True, color_discrete_map=colours, title=title, height=720,
                     category_orders={"metric": list(SURVIVAL_METRICS), "policy": list(POLICIES)},
                     hover_data={"budgeted_tokens": True, "records_kept": True, "records_total": True,
                                 "first_dropped_keys": True, "explanation": True, "metric": False, "policy": False})
    for row in markers.itertuples():
        colour = colours.get(row.format, "#6b7280")
        if pd.notna(row.coverage_tokens):
            figure.add_vline(x=float(row.coverage_tokens), line_dash="dash", line_color=colour, opacity=0.6)
        figure.add_vline(x=float(row.full_tokens), line_dash="dot", line_color=colour, opacity=0.6)
    figure.for_each_annotation(lambda note: note.update(text=note.text.split("=")[-1]))
    figure.update_yaxes(range=[-0.05, 1.05], title=None)
    figure.update_xaxes(tickformat=",d", title=None)  # plain numbers on the log axis: 1,000 not 1k
    figure.for_each_annotation(lambda note: note.update(text=f"<b>{note.text}</b>"))
    figure.update_layout(legend_title=None)
    return figure


def show() -> None:
    selection = current()
    budgets = budget_list()
    st.title("Budget survival")
    st.caption(f"{escape_markdown(selection.loaded.label)} · ordering **{selection.ordering}** (switch it in the "
               f"sidebar) · layout {selection.layout} · {selection.tokenizer_label}. Query: "
               f"*{escape_markdown(selection.query.question)}*")
    try:
        frame = survival_sweep(selection, budgets)
        key = analysis_cache.settings_key(selection, "markers", selection.formats, selection.ordering,
                                          selection.layout)
        markers = analysis_cache.markers(key, selection, selection.formats, selection.ordering, selection.layout)
    except GraphContextError as error:
        show_error(error)
        return
    st.markdown("Dashed vertical lines: each format's **D_k(S)**, the budget that holds every unit within "
                f"{int(frame['hops'].iloc[0])} hops of the seeds; dotted: its **complete text** (grammar included). "
                "Hover a point for the exact figures and the first record the cut drops.")
    figure = survival_figure(frame, markers, f"Survival against the budget ({', '.join(selection.formats)})"
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
