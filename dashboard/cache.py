"""Cached calls into core, keyed by graph content: a budget change re-renders and re-tokenizes nothing.

Graphs and renderings are immutable, so they are cached as resources (shared, never copied); a
graph is passed as `_graph` next to its `content_key`, which is what the cache hashes.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.budget_sweep import effective_layout
from core.analysis.sweep import accounted_rendering as core_accounted_rendering
from core.analysis.sweep import rendering_summary
from core.graph.model import Graph
from core.graph.view import GraphView, layout_positions, select_view
from core.io import LoadOptions, load_graph
from core.io.samples import load_sample
from core.metrics.coverage import coverage_curve, seed_region
from core.presentation import session_defaults
from core.presentation.teaching import tight_budget
from core.queries import Query, Solution
from core.registry import FORMATS, GENERATORS, ORDERINGS, TOKENIZERS
from core.retrieval.hops import hop_distances
from core.retrieval.ordering import inputs_for
from core.tokens.prefix_tokens import PrefixTokens
from core.tokens.token_spans import token_ends
from dashboard.large_graph import large
from dashboard.views.context_html import record_spans

USER_DATA_ENTRIES = 8  # uploads and the caches that hold their graphs stay bounded


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Reading the file…")
def uploaded_graph(data: bytes, name: str, format: str | None, options: LoadOptions,
                   nodes: bytes | None) -> Graph:
    """Parse an upload once per (bytes, options); a LoadError is raised, and not cached."""
    return load_graph(data, name=name, format=format, options=options, nodes=nodes)


@st.cache_data(max_entries=USER_DATA_ENTRIES, show_spinner="Measuring every format…")
def format_table(graph_key: str, _graph: Graph, tokenizer: str, query_key: str, _query: Query) -> pd.DataFrame:
    """core.analysis.sweep.rendering_summary of every registered format for this query, indexed by format."""
    return rendering_summary(_graph, [_query], tokenizer=tokenizer).set_index("format")


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
    return GENERATORS.get(name)(**dict(arguments))


@st.cache_resource(max_entries=16, show_spinner="Loading the sample…")
def sample_graph(name: str) -> Graph:
    return load_sample(name)


def complete_tokens(graph_key: str, graph: Graph, tokenizer: str, shown: tuple[str, ...]) -> dict[str, int]:
    """What each format's complete text counts against a budget, grammar included (core): every registered
    format's, or on a large graph (dashboard.large_graph) only the `shown` formats', each counted once."""
    if large(graph):
        return {name: _complete_format_tokens(graph_key, graph, tokenizer, name) for name in shown}
    return _every_complete_tokens(graph_key, graph, tokenizer)


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Counting every format's complete text…")
def _every_complete_tokens(graph_key: str, _graph: Graph, tokenizer: str) -> dict[str, int]:
    return session_defaults.complete_tokens(_graph, tokenizer)


@st.cache_resource(max_entries=USER_DATA_ENTRIES * 4, show_spinner="Counting the shown format's complete text…")
def _complete_format_tokens(graph_key: str, _graph: Graph, tokenizer: str, format_name: str) -> int:
    return session_defaults.complete_tokens(_graph, tokenizer, [format_name])[format_name]


@st.cache_data(max_entries=USER_DATA_ENTRIES, show_spinner="Counting tokens…")
def walkthrough_budget(graph_key: str, _graph: Graph, format_name: str, tokenizer: str) -> int:
    """core.presentation.teaching.tight_budget: a quarter of the format's complete text."""
    return tight_budget(_graph, format_name, tokenizer)


@st.cache_resource(max_entries=32, show_spinner="Rendering and counting tokens…")
def accounted_rendering(graph_key: str, _graph: Graph, format: str, ordering: str, layout: str,
                        seeds: tuple[str, ...], evidence_key: str, _evidence: frozenset[str], tokenizer: str,
                        question: str = "") -> PrefixTokens:
    """core.analysis.sweep.accounted_rendering of the whole graph: the rendering every budget and policy of a page cuts.

    Cached here once per (graph, format, ordering, layout, seeds, tokenizer, and the query's evidence or
    question for an ordering that uses it), so core's own cache is not asked to hold it a second time.
    """
    ordering_ = ORDERINGS.get(ordering)
    inputs = inputs_for(ordering_, seeds, evidence=_evidence, question=question)
    return core_accounted_rendering(_graph, FORMATS.get(format), ordering_, effective_layout(format, layout), inputs,
                                    TOKENIZERS.get(tokenizer), cache=None)


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
    """(k, |U_k(S)|, D_k(S)) for every hop ring of the seeds (core.metrics.coverage)."""
    return coverage_curve(seed_region(_graph, seeds), FORMATS.get(format), TOKENIZERS.get(tokenizer))


@st.cache_resource(max_entries=64, show_spinner=False)
def text_layout(rendering_key: str, _accounting: PrefixTokens, _evidence: frozenset[str]
                ) -> tuple[str, list[tuple[int, int]], list[int]]:
    """A rendering's complete text, each record's character span, and the records that carry evidence."""
    rendering = _accounting.rendering
    spans = record_spans(rendering.preamble, [record.text for record in rendering.records])
    carrying = [index for index, record in enumerate(rendering.records) if _evidence.intersection(record.unit_keys)]
    return rendering.text, spans, carrying
