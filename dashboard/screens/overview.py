"""Overview page: every format's cost and fidelity on the loaded graph, with the cheapest lossless one marked.

On a large graph (core.reports.graph_size) the graph's own figures show at once and every format is
measured when the reader asks, behind a progress bar with a Stop button.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import plotly.express as px
import streamlit as st

from core.analysis.count_caps import ANCHOR_ORDERING, CAP_KINDS, cap_columns, parse_caps
from core.analysis.estimator_error import complete_text_specs, error_rows
from core.analysis.sweep import cheapest_lossless, rendering_summary
from core.analysis.tokenizer_comparison import format_ranks, tokens_per_format, winner_sentence
from core.errors import ParameterError
from core.formats import FORMATS
from core.number_style import TOKENS_D3, signed_share
from core.reports.graph_size import GraphFigures, graph_figures
from core.retrieval import ORDERINGS
from core.specs import SweepSpec
from core.tokens import MODELS, TOKENIZERS
from core.tokens.models import approximate_count
from dashboard import cache
from dashboard.large_graph import large, large_graph_units
from dashboard.measure_on_request import measured
from dashboard.sidebar import current
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

# Cost stability (core.analysis.cost_stability), shown on graphs below the large-graph threshold: max/min tokens
STABILITY_COLUMNS = {
    "relabel max/min": "Largest over smallest token count of the complete text when only the node ids change: as "
                       "given, opaque ids (id-3f2a9c1b) and numbers (0, 1, 2, ...). 1.00: names do not move the cost.",
    "order max/min": "Largest over smallest token count of the complete text over 5 seeded random orders of the "
                     "same nodes and edges. 1.00: the order does not move the cost.",
}

LAYERS = {
    "round trip": ("Serialization fidelity",
                   "Decode the complete text and compare with the graph: does every node, edge and property "
                   "come back exactly? A lossy format drops something by design: where it comes back whole, this "
                   "graph has none of what it drops, and another graph may not."),
    "traversal accuracy": ("Traversal fidelity",
                           "Run the selected query on the decoded text and compare with the answer on the "
                           "original graph: 100% means the structure a query needs survived."),
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
    if large(graph):
        large_graph(selection)
        return
    summary = cache.format_table(graph.content_key, graph, selection.tokenizer, selection.query_key, selection.query)
    format_section(selection, summary)  # the main table first: nothing secondary is computed before it shows
    stability_section(selection, summary)
    count_caps_section(selection)  # these two count only when opened, as cost stability does
    estimator_section(selection)
    st.subheader("Every tokenizer side by side")
    tokenizers_on_request(graph)  # loading the other vocabularies was 2.5 of a first open's 5.7 s CPU


def large_graph(selection) -> None:
    """Above the threshold: the graph's own figures at once; every format measured when asked, behind progress."""
    graph = selection.graph
    figures = graph_figures(graph)
    st.info(f"**A large graph: {figures.units:,} nodes and edges**, above the {large_graph_units():,} from which "
            f"the Overview measures the {len(FORMATS):,} formats only when you ask (each is rendered, decoded and "
            "counted whole: time and memory grow with the graph), and the default budgets come from the formats on "
            "screen. The graph's own figures below are exact and need no rendering.", icon=":material/info:")
    graph_figures_section(figures)
    st.subheader("Every format")
    names = FORMATS.names()
    summary = measured(
        ("format table", graph.content_key, selection.tokenizer, selection.query_key), names,
        lambda name: alone(graph, name, lambda: rendering_summary(graph, [selection.query], formats=[name],
                                                                  tokenizer=selection.tokenizer).set_index("format")),
        what="Measuring every format", ask="Measure every format",
        explanation=f"Tokens ({selection.tokenizer}), size, round trip and traversal accuracy of every format's "
                    "complete text: measured when you ask, one format at a time, with the time left and a Stop button.")
    if summary is not None:
        format_section(selection, summary)
    st.subheader("Every tokenizer side by side")
    tokenizers_on_request(graph)


def tokenizers_on_request(graph) -> None:
    """Every format under every tokenizer, counted when the reader asks: loading the vocabularies takes seconds and
    about 450 MB (2.5 s of the reference sample's first open), and a 2,000-service graph took 30 s."""
    table = measured(("tokenizer table", graph.content_key), FORMATS.names(),
                     lambda name: alone(graph, name, lambda: tokens_per_format(graph, formats=[name])),
                     what="Counting every format with every tokenizer", ask="Count with every tokenizer",
                     explanation=f"Every format's complete text counted by each of the {len(TOKENIZERS):,} "
                                 "tokenizers: counted when you ask, one format at a time.")
    if table is not None:
        tokenizer_section(table)


def alone(graph, format_name: str, measure: Callable[[], pd.DataFrame]) -> pd.DataFrame:
    """One format's one-off measurement, after which the workbench lets go of the format's records the graph keeps
    (core.formats.base.record_memo): on a large graph they would hold hundreds of MB of records no page reads."""
    try:
        return measure()
    finally:
        cache.workbench().forget(graph, format_name)


def graph_figures_section(figures: GraphFigures) -> None:
    """Counts of the graph itself (core.reports.graph_size.graph_figures), shown on a large graph."""
    row = st.container(horizontal=True, wrap=True, gap="medium")
    for label, value in (("Nodes", figures.nodes), ("Edges", figures.edges), ("Node types", len(figures.node_types)),
                         ("Relations", len(figures.relations)), ("Property values", figures.property_values),
                         ("Largest out-degree", figures.largest_out_degree),
                         ("Largest in-degree", figures.largest_in_degree)):
        row.metric(label, f"{value:,}", width="content")
    types, relations = st.columns(2)
    show_table(pd.DataFrame(figures.node_types, columns=["node type", "nodes"]), "node_type_table", hide_index=True,
               container=types)
    show_table(pd.DataFrame(figures.relations, columns=["relation", "edges"]), "relation_table", hide_index=True,
               container=relations)


STABILITY_KEY = "cost_stability_open"
LOSSY_GREY = "#9ca3af"  # the bar chart's colour for a lossy format, and the heatmap's for its name


def stability_section(selection, summary: pd.DataFrame) -> None:
    """Cost stability (core.analysis.cost_stability) on request: an expander that counts when it is opened.

    Each format is rendered and counted again under three labellings and five orders, which on a 2,000-service
    graph took 25 s before the main table showed; now the table shows first and this waits for its reader.
    """
    graph = selection.graph
    expander = st.expander("Cost stability: do other node ids or another order move each format's cost?",
                           key=STABILITY_KEY, on_change="rerun", icon=":material/balance:")
    if not expander.open:
        expander.caption("Opening this counts every format again with relabelled ids and shuffled orders.")
        return
    stability = cache.stability_table(graph.content_key, graph, selection.tokenizer)
    table = stability[list(STABILITY_COLUMNS)].reindex(summary.index)
    show_table(table, "stability_table", rename=False, container=expander,
               column_config={name: st.column_config.NumberColumn(name, help=text)
                              for name, text in STABILITY_COLUMNS.items()})
    for name, text in STABILITY_COLUMNS.items():
        expander.caption(f"**{name}**: {text}")


CAPS_KEY = "count_caps_open"
ESTIMATORS_KEY = "estimator_error_open"
DEFAULT_CAPS = "30,100"
CAP_KIND_WORDS = {"edges": "edges (triples)", "nodes": "nodes", "records": "records of the format"}


def count_caps_section(selection) -> None:
    """What a count cap costs in tokens (core.analysis.count_caps through the workbench), counted when opened."""
    expander = st.expander("Count caps: what \"the top 30 triplets\" or LIMIT 100 costs in each format",
                           key=CAPS_KEY, on_change="rerun", icon=":material/filter_list:")
    if not expander.open:
        expander.caption("Opening this renders the first N edges, nodes or records of every format in every ordering "
                         "that does not read the answer, and counts them.")
        return
    left, right = expander.columns(2)
    text = left.text_input("Caps (counts, comma-separated)", value=DEFAULT_CAPS, key="count_caps")
    kind = right.radio("What the caps count", CAP_KINDS, format_func=CAP_KIND_WORDS.get, horizontal=True,
                       key="count_cap_kind")
    try:
        caps = parse_caps(text)
    except ParameterError as error:
        expander.error(f"{error.what}: {error.fix}.")
        return
    if not selection.seeds.node_ids:
        expander.info("Pick seed nodes in the sidebar: the caps are counted in the seed-anchored order.")
        return
    table = _caps_table(selection.graph.content_key, selection.graph, selection.tokenizer, selection.query_key,
                        selection.query, selection.seeds.node_ids, caps, kind)
    show_table(table.set_index("format"), "count_caps_table", container=expander)
    expander.caption(
        f"**tokens**: the exact tokens ({selection.tokenizer}) of the rendering holding the first N {kind} in "
        f"{ANCHOR_ORDERING} order (seed-anchored, from {', '.join(selection.seeds.node_ids)}); edges and nodes are "
        "rendered alone, records are the format's own (nodes then edges). **min / median / max**: the same cap "
        "under every ordering that does not read the answer. **counted**: prefix, read off the rendering's prefix "
        "counts; rendered, where the format's records group units, the first N rendered alone and encoded. Grammar "
        "not included.")


@st.cache_data(max_entries=16, show_spinner="Counting every format's caps in every ordering…")
def _caps_table(graph_key: str, _graph, tokenizer: str, query_key: str, _query, seeds: tuple[str, ...],
                caps: tuple[int, ...], kind: str) -> pd.DataFrame:
    spec = SweepSpec.from_names(_graph, [_query], seeds=seeds, tokenizer_name=tokenizer,
                                ordering_names=[name for name in ORDERINGS.names() if not ORDERINGS.get(name).oracle])
    return pd.DataFrame(cap_columns(cache.workbench().count_caps(spec, caps, kind=kind)))


def estimator_section(selection) -> None:
    """chars/4, chars/3 and words × 1.3 against the exact count (core.analysis.estimator_error), when opened."""
    expander = st.expander("Estimator error: how far chars/4, chars/3 and words × 1.3 are from the exact count",
                           key=ESTIMATORS_KEY, on_change="rerun", icon=":material/calculate:")
    if not expander.open:
        expander.caption("Opening this sets each rule of thumb beside the exact tokens of every format's complete text.")
        return
    names = expander.multiselect("Tokenizers", TOKENIZERS.names(), default=[selection.tokenizer],
                                 key="estimator_tokenizers")
    if not names:
        expander.info("Pick at least one tokenizer.")
        return
    table = _estimator_table(selection.graph.content_key, selection.graph, tuple(names))
    show_table(table.set_index("format"), "estimator_table", container=expander)
    expander.caption("Each estimate is rounded up to a whole token; its error is (estimate − exact) / exact: **+** "
                     "over-counts (a budget set by it wastes room), **−** under-counts (a context it passes overflows). "
                     "Words are runs between whitespace: dense JSON is one long word.")


@st.cache_data(max_entries=16, show_spinner="Counting every format's complete text…")
def _estimator_table(graph_key: str, _graph, tokenizer_names: tuple[str, ...]) -> pd.DataFrame:
    errors = cache.workbench().estimator_error(complete_text_specs(_graph, tokenizer_names=tokenizer_names))
    columns = error_rows(errors)
    if len(tokenizer_names) == 1:
        del columns["tokenizer"]
    # Signed shares as the number style writes them (+12%, −43%): the table's own share rule has no sign.
    return pd.DataFrame({name: [signed_share(value) for value in values] if name.endswith(" error") else values
                         for name, values in columns.items()})


def round_trip_words(lossless: bool, exact: bool) -> str:
    """The round trip column in words: a lossy format that comes back whole did so on this graph only."""
    if not exact:
        return "✗ not exact" + ("" if lossless else " (lossy format)")
    return "✓ exact" if lossless else "lossy: exact on this graph"


def format_section(selection, summary: pd.DataFrame) -> None:
    """The table and chart of every format's complete text (core.analysis.sweep.rendering_summary)."""
    best = cheapest_lossless(summary.reset_index())
    table = summary.drop(columns=["graph_hash", "tokenizer"]).rename(columns=lambda name: name.replace("_", " "))
    table["round trip"] = [round_trip_words(bool(lossless), bool(exact))
                           for lossless, exact in zip(table["lossless"], table["round trip"])]
    if best is not None:
        tokens = approximate_count(int(table.loc[best, "tokens"]), selection.approximate)
        st.markdown(f"Cheapest lossless format: **{best}**, {tokens} tokens for the whole graph "
                    f"(highlighted). Query for traversal accuracy: *{escape_markdown(selection.question_shown)}*")
    # Every row in view (a table's own scroll hid the highlighted row on some graphs): 35 px a row and the header.
    show_table(table, "format_table", highlighted=lambda row: row.name == best, height=35 * (len(table) + 1) + 3,
               column_config={
                   "round trip": st.column_config.TextColumn("round trip", help=LAYERS["round trip"][1],
                                                               width="medium"),
                   "traversal accuracy": st.column_config.NumberColumn("traversal accuracy",
                                                                       help=LAYERS["traversal accuracy"][1]),
                   "lossless": st.column_config.CheckboxColumn("lossless",
                                                               help="False: the format drops information by design"),
                   "grammar tokens": st.column_config.NumberColumn(
                       help="Tokens of the instructions a model needs to read it"),
               })
    for column, (title, text) in zip(st.columns(3), LAYERS.values()):
        column.markdown(f"**{title}**")
        column.caption(text)
    chart = table.reset_index().assign(kind=lambda frame: [
        "cheapest lossless" if name == best else ("lossless" if lossless else "lossy")
        for name, lossless in zip(frame["format"], frame["lossless"])])
    figure = px.bar(chart, x="format", y="tokens", color="kind", text_auto=TOKENS_D3,
                    color_discrete_map={"cheapest lossless": "#16a34a", "lossless": "#2563eb", "lossy": LOSSY_GREY},
                    title=f"Tokens per format ({selection.tokenizer}{', approximate' if selection.approximate else ''}), "
                          "whole graph")
    figure.update_traces(hovertemplate="%{x}: %{y:,} tokens<extra></extra>")
    figure.update_yaxes(tickformat=TOKENS_D3, title="tokens")
    figure.update_layout(xaxis_title=None, legend_title=None)
    st.plotly_chart(figure, width="stretch", key="tokens_chart")


def tokenizer_section(table: pd.DataFrame) -> None:
    """Every registered tokenizer side by side: tokens per format, each format's rank as a heatmap, the winner."""
    st.markdown(escape_markdown(winner_sentence(table)))
    stand_ins = ", ".join(f"{model.title} → {model.tokenizer}" for model in map(MODELS.get, MODELS) if model.approximate)
    st.caption(f"Exact counts from each vendor's tokenizer, loaded offline. No public tokenizer, so a stand-in "
               f"counts (approximate, ≈): {stand_ins}.")
    show_table(table, "tokenizer_table", rename=False)
    ranks = format_ranks(table)
    # 22 px a row, so every format's name is written (plotly otherwise labels every other row).
    figure = px.imshow(ranks, text_auto=True, aspect="auto", color_continuous_scale="RdYlGn_r",
                       labels={"x": "tokenizer", "y": "format", "color": "rank"},
                       title="Format ranking per tokenizer (1 = fewest tokens)", height=140 + 22 * len(ranks))
    # Lossy formats marked as the bar chart marks them: in its grey, with the word.
    figure.update_yaxes(tickmode="array", tickvals=list(ranks.index), ticktext=[
        name if FORMATS.get(name).lossless else f"<span style='color:{LOSSY_GREY}'>{name} (lossy)</span>"
        for name in ranks.index])
    figure.update_xaxes(tickmode="array", tickvals=list(ranks.columns), ticktext=list(ranks.columns))
    figure.update_traces(hovertemplate="%{y} under %{x}: rank %{z}<extra></extra>")
    st.plotly_chart(figure, width="stretch", key="tokenizer_ranks")
    show_table(ranks, "tokenizer_rank_table", rename=False)

if __name__ == "__main__":  # run as a page by st.navigation
    show()
