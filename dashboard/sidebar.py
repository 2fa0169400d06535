"""The shared sidebar: every choice a page needs, bound to the URL, gathered into one Selection."""

from __future__ import annotations

import math
from dataclasses import dataclass

import streamlit as st

from core.budget import ALL_POLICIES
from core.graph import Graph
from core.models import counting_note
from core.ordering import LAYOUTS
from core.queries import Query, Solution
from core.registry import FORMATS, MODELS, ORDERINGS, TOKENIZERS
from core.seeds import Seeds
from dashboard import cache
from dashboard.query_widgets import QUERY_PARAMETER_PREFIX, query_widgets, seed_widgets
from dashboard.sources import LoadedGraph, graph_source

MAX_PANELS = 4


@dataclass(frozen=True)
class Selection:
    """What the pages show: read from the widgets, never computed here."""

    loaded: LoadedGraph
    tokenizer: str
    formats: tuple[str, ...]
    budget: int
    budget_limit: int
    query: Query
    seeds: Seeds
    ordering: str
    layout: str
    policy: str
    model: str = "gpt-4o"
    approximation: str = ""  # why the counts only estimate the chosen model's, or "" when exact

    @property
    def approximate(self) -> bool:
        return bool(self.approximation)

    @property
    def solution(self) -> Solution:
        """The query's gold answer and evidence on the full graph (cached by graph and query)."""
        return cache.solution(self.graph.content_key, self.graph, self.query_key, self.query)

    @property
    def evidence(self) -> frozenset[str]:
        return self.solution.evidence

    @property
    def query_key(self) -> str:
        return repr((self.query.name, self.query.arguments))

    @property
    def graph(self) -> Graph:
        return self.loaded.graph


def store(selection: Selection) -> None:
    st.session_state["selection"] = selection


def current() -> Selection:
    """The Selection the sidebar made in this run (pages call this)."""
    return st.session_state["selection"]


def format_label(name: str) -> str:
    """A format's name, marked when it loses information."""
    return name if FORMATS.get(name).lossless else f"{name} (lossy)"


GRAPH_DEPENDENT_KEYS = ("seeds", "question")  # widgets whose options come from the graph


def draw() -> Selection:
    sidebar = st.sidebar
    loaded = graph_source(sidebar)
    graph = loaded.graph
    _forget_choices_of_another_graph(graph)
    sidebar.divider()
    seeds = seed_widgets(sidebar, graph, loaded.sample)
    query = query_widgets(sidebar, graph, seeds, loaded.sample)
    sidebar.divider()
    model, tokenizer, approximation = _model_and_tokenizer(sidebar)
    names = FORMATS.names()
    formats = sidebar.multiselect("Formats (up to 4)", names, default=names[:2], format_func=format_label,
                                  max_selections=MAX_PANELS, key="formats", bind="query-params") or names[:1]
    ordering = sidebar.selectbox("Ordering", ORDERINGS.names() + ORDERINGS.ends_names(), key="ordering",
                                 bind="query-params")
    sidebar.caption(f"{ORDERINGS.get(ordering).title}: {ORDERINGS.get(ordering).description}")
    layout = sidebar.selectbox("Layout", LAYOUTS, key="layout", bind="query-params",
                               help="Interleaved puts each node's edges right after it (formats with separate "
                                    "node and edge sections always write nodes then edges)")
    policy = sidebar.segmented_control("Budget policy", ALL_POLICIES, default="record", key="policy",
                                       bind="query-params", help="raw: the first B tokens of the complete text "
                                       "(may not parse); record: whole records while the next fits (always parses); "
                                       "sections: nodes and edges each get their share of B (LightRAG's 6,000 and "
                                       "8,000 of 30,000), each filled by the record rule"
                                       ) or "record"
    totals = cache.full_token_counts(graph.content_key, graph, tokenizer)
    budget, limit = _budget(sidebar, totals)
    return Selection(loaded, tokenizer, tuple(formats), budget, limit, query, seeds, ordering, layout, policy, model,
                     approximation)


def _tokenizer_follows_model() -> None:
    st.session_state["tokenizer"] = MODELS.get(st.session_state["model"]).tokenizer


def _model_and_tokenizer(sidebar) -> tuple[str, str, str]:
    """"Which model will read this?" sets the tokenizer; any registered tokenizer can still be picked.

    Counts for a model without a public tokenizer, or with another model's tokenizer, are marked
    approximate here, on every page (core.models.counting_note says why).
    """
    model = sidebar.selectbox("Which model will read this?", MODELS.names(), key="model", bind="query-params",
                              format_func=lambda name: MODELS.get(name).title, on_change=_tokenizer_follows_model)
    tokenizer = sidebar.selectbox("Tokenizer", TOKENIZERS.names(), key="tokenizer", bind="query-params",
                                  help="Set by the model; every registered tokenizer loads offline from its package")
    chosen = TOKENIZERS.get(tokenizer)
    sidebar.caption(f"{chosen.family} · {chosen.source} · {chosen.licence}")
    approximation = counting_note(MODELS.get(model), tokenizer)
    if approximation:
        sidebar.warning(f"Approximate counts (≈): {approximation}.", icon="⚠️")
    return model, tokenizer, approximation


def _forget_choices_of_another_graph(graph: Graph) -> None:
    """When the graph changes, seeds, question and query parameters start again from its defaults."""
    shown = st.session_state.get("graph_shown")
    if shown is not None and shown != graph.content_key:
        for key in list(st.session_state):
            if key in GRAPH_DEPENDENT_KEYS or str(key).startswith(QUERY_PARAMETER_PREFIX):
                del st.session_state[key]
    st.session_state["graph_shown"] = graph.content_key


def _budget(sidebar, totals: dict[str, int]) -> tuple[int, int]:
    """Slider and exact number for one budget; the range covers the largest complete rendering.

    The slider takes its value from session state (set from the URL when valid, else a default of
    half the cheapest format's tokens), so the number input can move it without a default clash.
    """
    limit = max(100, math.ceil(max(totals.values()) * 1.05 / 100) * 100)
    default = max(1, min(totals.values()) // 2)
    current = st.session_state.get("budget")
    if not isinstance(current, int) or not 0 <= current <= limit:
        st.session_state["budget"] = url_integer("budget", 0, limit, default)

    def from_number() -> None:
        st.session_state["budget"] = st.session_state["budget_number"]

    budget = sidebar.slider("Token budget", 0, limit, key="budget", bind="query-params")
    st.session_state["budget_number"] = budget
    sidebar.number_input("Exact budget", 0, limit, key="budget_number", on_change=from_number,
                         help="Type a budget; the slider follows.")
    return int(budget), limit


def url_integer(key: str, low: int, high: int, default: int) -> int:
    """The URL parameter `key` as a whole number in [low, high], else `default`."""
    try:
        value = int(st.query_params.get(key, ""))
    except ValueError:
        return default
    return value if low <= value <= high else default
