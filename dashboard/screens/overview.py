"""Overview page: every format's cost and fidelity on the loaded graph, with the cheapest lossless one marked."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from core.analysis.sweep import cheapest_lossless
from core.registry import MODELS
from core.tokens.models import approximate_count
from core.tokens.tokenizer_comparison import format_ranks, tokens_per_format, winner_sentence
from dashboard import cache
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


def show() -> None:
    selection = current()
    graph = selection.graph
    st.title("Overview")
    st.caption(f"{escape_markdown(selection.loaded.label)} · {len(graph.nodes):,} nodes · {len(graph.edges):,} edges · "
               f"graph hash {graph.sha256[:12]} · tokenizer {selection.tokenizer}"
               + (f" · approximate: {escape_markdown(selection.approximation)}" if selection.approximate else ""))
    summary = cache.format_table(graph.content_key, graph, selection.tokenizer, selection.query_key, selection.query)
    best = cheapest_lossless(summary.reset_index())
    table = summary.drop(columns=["graph_hash", "tokenizer"]).rename(columns=lambda name: name.replace("_", " "))
    if best is not None:
        tokens = approximate_count(int(table.loc[best, "tokens"]), selection.approximate)
        st.markdown(f"Cheapest lossless format: **{best}**, {tokens} tokens for the whole graph "
                    f"(highlighted). Query for traversal accuracy: *{escape_markdown(selection.question_shown)}*")
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
                    title=f"Tokens per format ({selection.tokenizer}{', approximate' if selection.approximate else ''}), "
                          "whole graph")
    figure.update_layout(xaxis_title=None, legend_title=None)
    st.plotly_chart(figure, width="stretch", key="tokens_chart")
    every_tokenizer(selection)


@st.cache_data(max_entries=16, show_spinner="Counting every format with every tokenizer…")
def _tokens_per_format(content_key: str, _graph) -> pd.DataFrame:
    return tokens_per_format(_graph)


def every_tokenizer(selection) -> None:
    """Every registered tokenizer side by side: tokens per format, each format's rank as a heatmap, the winner."""
    st.subheader("Every tokenizer side by side")
    table = _tokens_per_format(selection.graph.content_key, selection.graph)
    st.markdown(escape_markdown(winner_sentence(table)))
    stand_ins = ", ".join(f"{model.title} → {model.tokenizer}" for model in map(MODELS.get, MODELS) if model.approximate)
    st.caption(f"Exact counts from each vendor's tokenizer, loaded offline. No public tokenizer, so a stand-in "
               f"counts (approximate, ≈): {stand_ins}.")
    st.dataframe(table, width="stretch", key="tokenizer_table")
    ranks = format_ranks(table)
    figure = px.imshow(ranks, text_auto=True, aspect="auto", color_continuous_scale="RdYlGn_r",
                       labels={"x": "tokenizer", "y": "format", "color": "rank"},
                       title="Format ranking per tokenizer (1 = fewest tokens)")
    st.plotly_chart(figure, width="stretch", key="tokenizer_ranks")
    st.dataframe(ranks, width="stretch", key="tokenizer_rank_table")

if __name__ == "__main__":  # run as a page by st.navigation
    show()
