"""Cached calls into core, keyed by graph content: a budget change re-renders and re-tokenizes nothing.

Graphs and renderings are immutable, so they are cached as resources (shared, never copied); a
graph is passed as `_graph` next to its `content_key`, which is what the cache hashes.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core import session_defaults
from core.benchmark import measure_format
from core.coverage import coverage_curve, seed_region
from core.graph import Graph
from core.graph_view import GraphView, layout_positions, select_view
from core.hops import hop_distances, hop_units
from core.io import LoadOptions, load_graph
from core.ordering import inputs_for, layouts_for, order_units
from core.prefix_tokens import PrefixTokens, prefix_tokens
from core.queries import Query, Solution
from core.registry import FORMATS, ORDERINGS, TOKENIZERS
from core.samples import load_sample
from core.token_spans import token_ends
from core.units import graph_units
from dashboard.generators import GENERATORS
from dashboard.views.context_html import record_spans

USER_DATA_ENTRIES = 8  # uploads and the caches that hold their graphs stay bounded


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Reading the file…")
def uploaded_graph(data: bytes, name: str, format: str | None, options: LoadOptions,
                   nodes: bytes | None) -> Graph:
    """Parse an upload once per (bytes, options); a LoadError is raised, and not cached."""
    return load_graph(data, name=name, format=format, options=options, nodes=nodes)


@st.cache_data(max_entries=USER_DATA_ENTRIES, show_spinner="Measuring every format…")
def format_table(graph_key: str, _graph: Graph, tokenizer: str, query_key: str, _query: Query) -> pd.DataFrame:
    """Per registered format: bytes, characters, tokens, grammar tokens, records, round trip, accuracy, lossless."""
    gold = {_query.name: _query.solve(_graph).answer}
    rows = []
    for name in FORMATS:
        figures = measure_format(_graph, FORMATS.get(name), TOKENIZERS.get(tokenizer), {_query.name: _query}, gold)
        rows.append({"format": name, "bytes": figures.utf8_bytes, "characters": figures.characters,
                     "tokens": figures.tokens, "grammar tokens": figures.grammar_tokens,
                     "records": figures.records, "round trip": figures.round_trip_equal,
                     "traversal accuracy": figures.traversal_accuracy, "lossless": figures.lossless})
    return pd.DataFrame(rows).set_index("format")


@st.cache_resource(max_entries=64, show_spinner=False)
def text_token_ends(text_key: str, _text: str, tokenizer: str) -> tuple[int, ...]:
    """Token end offsets of a rendered text (tokenized once per text and tokenizer)."""
    return token_ends(TOKENIZERS.get(tokenizer), _text)


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Laying out the graph…")
def graph_view(graph_key: str, _graph: Graph, hops_key: str, _hops: dict[str, float]
               ) -> tuple[GraphView, dict[str, tuple[float, float]] | None]:
    """The nodes to draw and, for a view too large for live physics, their fixed positions."""
    view = select_view(_graph, _hops)
    return view, layout_positions(view) if view.needs_fixed_layout else None


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Generating the graph…")
def generated_graph(name: str, arguments: tuple[tuple[str, object], ...]) -> Graph:
    return GENERATORS[name](**dict(arguments))


@st.cache_resource(max_entries=16, show_spinner="Loading the sample…")
def sample_graph(name: str) -> Graph:
    return load_sample(name)


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Counting every format's complete text…")
def complete_tokens(graph_key: str, _graph: Graph, tokenizer: str) -> dict[str, int]:
    """What each registered format's complete text counts against a budget, grammar included (core)."""
    return session_defaults.complete_tokens(_graph, tokenizer)


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Counting tokens…")
def full_token_counts(graph_key: str, _graph: Graph, tokenizer: str) -> dict[str, int]:
    """Tokens of each registered format's complete rendering in canonical order (sets the budget range)."""
    counter = TOKENIZERS.get(tokenizer)
    return {name: counter.count(FORMATS.get(name).render(_graph, graph_units(_graph)).text) for name in FORMATS}


@st.cache_resource(max_entries=32, show_spinner="Rendering and counting tokens…")
def accounted_rendering(graph_key: str, _graph: Graph, format: str, ordering: str, layout: str,
                        seeds: tuple[str, ...], evidence_key: str, _evidence: frozenset[str], tokenizer: str,
                        question: str = "") -> PrefixTokens:
    """The graph's units with hop levels, ordered and laid out, rendered, with every prefix's exact tokens.

    Built once per (graph, format, ordering, layout, seeds, tokenizer, and the query's evidence or
    question for an ordering that uses it); every budget and policy reuses it.
    """
    format_ = FORMATS.get(format)
    if layout not in layouts_for(format_):
        layout = "nodes_then_edges"
    ordering_ = ORDERINGS.get(ordering)
    inputs = inputs_for(ordering_, seeds, evidence=_evidence, question=question)
    units = hop_units(_graph, seeds)
    ordered = order_units(_graph, units, ordering_, layout, inputs)
    return prefix_tokens(format_.render(_graph, ordered), TOKENIZERS.get(tokenizer), source=(_graph, units))


@st.cache_resource(max_entries=16, show_spinner=False)
def seed_hops(graph_key: str, _graph: Graph, seeds: tuple[str, ...]) -> dict[str, int]:
    return hop_distances(_graph, seeds)


@st.cache_resource(max_entries=16, show_spinner=False)
def solution(graph_key: str, _graph: Graph, query_key: str, _query: Query) -> Solution:
    """The query's gold answer and evidence on the full graph."""
    return _query.solve(_graph)


@st.cache_data(max_entries=16, show_spinner=False)
def coverage(graph_key: str, _graph: Graph, seeds: tuple[str, ...], format: str, tokenizer: str
             ) -> list[tuple[int, int, int]]:
    """(k, |U_k(S)|, D_k(S)) for every hop ring of the seeds (core.coverage)."""
    return coverage_curve(seed_region(_graph, seeds), FORMATS.get(format), TOKENIZERS.get(tokenizer))


@st.cache_resource(max_entries=64, show_spinner=False)
def text_layout(rendering_key: str, _accounting: PrefixTokens, _evidence: frozenset[str]
                ) -> tuple[str, list[tuple[int, int]], list[int]]:
    """A rendering's complete text, each record's character span, and the records that carry evidence."""
    rendering = _accounting.rendering
    spans = record_spans(rendering.preamble, [record.text for record in rendering.records])
    carrying = [index for index, record in enumerate(rendering.records) if _evidence.intersection(record.unit_keys)]
    return rendering.text, spans, carrying
