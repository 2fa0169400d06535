"""Overview page: every format's cost and fidelity on the loaded graph, with the cheapest lossless one marked."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from core.analysis import tokenizer_comparison
from dashboard import cache
from dashboard.analysis_controls import tokenizers_to_show
from dashboard.sidebar import current
from dashboard.views.markdown_text import escape_markdown

HIGHLIGHT = "background-color: #dcfce7; font-weight: 600"

LAYERS = {
    "round trip": ("Serialization fidelity",
                   "Decode the complete text and compare with the graph: does every node, edge and property "
                   "come back exactly? Lossy formats fail here by design."),
    "traversal accuracy": ("Traversal fidelity",
                           "Run the selected query on the decoded text and compare with the answer on the "
                           "original graph: 1.0 means the structure a query needs survived."),
    "answer quality": ("Answer quality",
                       "Whether a model reading the text answers correctly. That needs a model, so it is "
                       "measured by the optional evaluation, not here; the two layers above bound it."),
}


def cheapest_lossless(table: pd.DataFrame) -> str | None:
    """The format with the fewest tokens among those that round-trip exactly."""
    exact = table[table["lossless"] & table["round trip"]]
    return None if exact.empty else str(exact["tokens"].idxmin())


def show() -> None:
    selection = current()
    graph = selection.graph
    st.title("Overview")
    st.caption(f"{escape_markdown(selection.loaded.label)} · {len(graph.nodes):,} nodes · {len(graph.edges):,} edges · "
               f"graph hash {graph.sha256[:12]} · tokenizer {selection.tokenizer}")
    table = cache.format_table(graph.content_key, graph, selection.tokenizer, selection.query_key, selection.query)
    best = cheapest_lossless(table)
    if best is not None:
        st.markdown(f"Cheapest lossless format: **{best}**, {table.loc[best, 'tokens']:,} tokens for the whole graph "
                    f"(highlighted). Query for traversal accuracy: *{escape_markdown(selection.query.question)}*")
    styled = table.style.apply(lambda row: [HIGHLIGHT if row.name == best else ""] * len(row), axis=1)
    st.dataframe(styled, width="stretch", key="format_table", column_config={
        "round trip": st.column_config.CheckboxColumn("round trip", help=LAYERS["round trip"][1]),
        "traversal accuracy": st.column_config.NumberColumn("traversal accuracy", format="%.2f",
                                                            help=LAYERS["traversal accuracy"][1]),
        "lossless": st.column_config.CheckboxColumn("lossless", help="False: the format drops information by design"),
        "grammar tokens": st.column_config.NumberColumn(help="Tokens of the instructions a model needs to read it"),
    })
    for column, (title, text) in zip(st.columns(3), LAYERS.values()):
        column.markdown(f"**{title}**")
        column.caption(text)
    chart = table.reset_index().assign(kind=lambda frame: [
        "cheapest lossless" if name == best else ("lossless" if lossless else "lossy")
        for name, lossless in zip(frame["format"], frame["lossless"])])
    figure = px.bar(chart, x="format", y="tokens", color="kind", text="tokens",
                    color_discrete_map={"cheapest lossless": "#16a34a", "lossless": "#2563eb", "lossy": "#9ca3af"},
                    title=f"Tokens per format ({selection.tokenizer}), whole graph")
    figure.update_layout(xaxis_title=None, legend_title=None)
    st.plotly_chart(figure, width="stretch", key="tokens_chart")
    tokenizers = tokenizers_to_show(selection.tokenizer, "overview_tokenizers")
    if len(tokenizers) > 1:
        comparison = tokenizer_comparison(graph, tokenizers)
        st.dataframe(comparison, width="stretch", key="tokenizer_table")
        st.plotly_chart(px.bar(comparison[list(tokenizers)].reset_index().melt(id_vars="format", var_name="tokenizer",
                                                                               value_name="tokens"),
                               x="format", y="tokens", color="tokenizer", barmode="group",
                               title="Tokens of the complete text per tokenizer"),
                        width="stretch", key="tokenizer_chart")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
