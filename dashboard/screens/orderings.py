"""Orderings page: for one format, evidence survival against the budget under every ordering, and the
retriever gap: how far each ordering a real retriever could use falls short of the evidence_first oracle."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from core.analysis.retriever_gap import retriever_gap
from core.errors import GraphContextError
from core.formats import FORMATS
from core.retrieval import ORDERINGS
from dashboard.analysis_cache import orderings_sweep
from dashboard.analysis_controls import budget_list, show_error
from dashboard.sidebar import current, format_label
from dashboard.state.teaching import orderings_sentence
from dashboard.views.charts import orderings_figure
from dashboard.views.markdown_text import escape_markdown


def show() -> None:
    selection = current()
    budgets = budget_list()
    st.title("Orderings")
    st.caption(f"{escape_markdown(selection.loaded.label)} · policy **{selection.policy}** · layout "
               f"{selection.layout} · {selection.tokenizer_label}. Query: *{escape_markdown(selection.question_shown)}*")
    names = FORMATS.names()
    format_name = st.selectbox("Format", names, index=names.index(selection.formats[0]), format_func=format_label,
                               key="orderings_format", bind="query-params")
    try:
        frame = orderings_sweep(selection, format_name, budgets)
    except GraphContextError as error:
        show_error(error)
        return
    # Built from the figures below (dashboard.state.teaching), so the claim is the chart's own.
    st.markdown(f"{orderings_sentence(frame)} `evidence_first` uses the answer itself: an upper bound, not a "
                "strategy.")
    st.plotly_chart(orderings_figure(frame, format_name, selection.policy), width="stretch", key="orderings_chart")
    table = frame.pivot_table(index="budget", columns="ordering", values="evidence_survival", sort=False)
    st.dataframe(table[[name for name in ORDERINGS.names() if name in table.columns]], width="stretch",
                 key="orderings_table")
    show_retriever_gap(frame, format_name, selection.policy)


def gap_figure(gap: pd.DataFrame, format_name: str, policy: str):
    figure = px.line(gap, x="budget", y="evidence_gap", color="ordering", markers=True, log_x=True,
                     hover_data=["evidence_survival", "oracle_evidence_survival", "accuracy_gap"],
                     title=f"Retriever gap of {format_name} ({policy} policy): evidence_first's evidence survival "
                           "minus each ordering's")
    figure.update_yaxes(range=[-0.05, 1.05], title="evidence survival below the oracle")
    figure.update_layout(legend_title=None)
    return figure


def show_retriever_gap(frame: pd.DataFrame, format_name: str, policy: str) -> None:
    st.subheader("The retriever gap")
    st.markdown("What a real retriever loses against the oracle: personalized PageRank from the seeds, centrality, "
                "BM25 against the question, breadth-first and hop tiers, each also with `+ends` (best units at "
                "both ends, LongContextReorder). 0 means as good as knowing the answer.")
    gap = retriever_gap(frame)
    st.plotly_chart(gap_figure(gap, format_name, policy), width="stretch", key="orderings_gap_chart")
    table = gap.pivot_table(index="budget", columns="ordering", values=["evidence_gap", "accuracy_gap"], sort=False)
    st.dataframe(table, width="stretch", key="orderings_gap_table")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
