"""Cached calls into core, keyed by graph content: a budget change re-renders and re-tokenizes nothing.

Graphs and renderings are immutable, so they are cached as resources (shared, never copied); a
graph is passed as `_graph` next to its `content_key`, which is what the cache hashes.
"""

from __future__ import annotations

import hashlib
import time
import warnings

import numpy as np
import pandas as pd
import streamlit as st

from core.analysis import session_defaults
from core.analysis.budget_sweep import effective_layout
from core.analysis.cost_stability import cost_stability, stability_rows
from core.analysis.sweep import rendering_summary
from core.errors import LoadNotice
from core.execution.workers import fewer_collections
from core.formats import FORMATS
from core.graph.hops import hop_distances
from core.graph.model import Graph
from core.graph.view import GraphView, graph_positions, layout_positions, select_view
from core.io import LoadOptions, load_graph
from core.io.generate import GENERATORS
from core.io.samples import load_sample
from core.memory.held_bytes import graph_with_memos_bytes, layout_bytes
from core.memory.rendering_cache import rendering_cache
from core.memory.sized_cache import SizedCache
from core.metrics.coverage import coverage_curve, seed_region
from core.queries import Query, Solution
from core.reports.graph_size import graph_figures
from core.retrieval.ordering import LAYOUTS
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import PrefixTokens
from core.tokens.token_spans import token_ends
from core.workbench import Workbench
from dashboard.large_graph import large
from dashboard.state.teaching import tight_budget
from dashboard.views.context_html import record_bounds

USER_DATA_ENTRIES = 8  # uploads and the caches that hold their graphs stay bounded
# What the renderings a page cuts may hold together (the largest graph's pretty_json holds ~550 MB, its
# compact_json ~190 MB): past it the least recently used go, the newest always stays (core.memory.sized_cache).
ACCOUNTINGS_BYTES = 900_000_000
# Generated and uploaded graphs with the record memos each keeps (the largest generated one: 74 MB, with its
# memos up to 445 MB). Before the memos went with their graph, 400 MB of graphs and one set of memos for all.
GRAPHS_BYTES = 700_000_000
LAYOUTS_BYTES = 150_000_000  # the panels' complete texts and record spans (~55 MB for that pretty_json)
# What a page read in the last ten minutes stays even past the bound: a page showing four large renderings
# would otherwise push out the first while building the fourth, and rebuild it on every rerun.
KEEP_SECONDS = 600


@st.cache_resource
def _graphs() -> SizedCache[Graph]:
    return SizedCache(GRAPHS_BYTES, graph_with_memos_bytes)


@st.cache_resource
def _upload_notices() -> dict[tuple, tuple[str, ...]]:
    return {}


def uploaded_graph(data: bytes, name: str, format: str | None, options: LoadOptions,
                   nodes: bytes | None) -> tuple[Graph, tuple[str, ...]]:
    """Parse an upload once per (bytes, options), with the reader's notices (what it skipped on purpose);
    a LoadError is raised, and not kept."""
    key = ("upload", hashlib.sha256(data).hexdigest(), name, format, options,
           None if nodes is None else hashlib.sha256(nodes).hexdigest())
    found = _graphs().get(key)
    if found is not None:
        return found, _upload_notices().get(key, ())
    with st.spinner(f"Reading {name} ({len(data):,} bytes)…"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LoadNotice)
        graph = load_graph(data, name=name, format=format, options=options, nodes=nodes)
        notices = _upload_notices()
        if len(notices) > 64:  # a few short lines per upload; forget the oldest past a bound
            notices.pop(next(iter(notices)))
        notices[key] = tuple(str(warning.message) for warning in caught if issubclass(warning.category, LoadNotice))
        _graphs().put(key, graph)  # before the spinner ends (see account)
    return graph, notices[key]


@st.cache_data(max_entries=USER_DATA_ENTRIES, show_spinner="Measuring every format…")
def format_table(graph_key: str, _graph: Graph, tokenizer: str, query_key: str, _query: Query) -> pd.DataFrame:
    """core.analysis.sweep.rendering_summary of every registered format for this query, indexed by format."""
    return rendering_summary(_graph, [_query], tokenizer=tokenizer).set_index("format")


@st.cache_data(max_entries=16, show_spinner="Counting every format with relabelled ids and shuffled orders…")
def stability_table(graph_key: str, _graph: Graph, tokenizer: str) -> pd.DataFrame:
    """core.analysis.cost_stability of every registered format, indexed by format."""
    return pd.DataFrame(stability_rows(cost_stability(_graph, tokenizer))).set_index("format")


@st.cache_resource(max_entries=64, show_spinner=False)
def text_token_ends(text_key: str, _text: str, tokenizer: str) -> tuple[int, ...]:
    """Token end offsets of a rendered text (tokenized once per text and tokenizer)."""
    return token_ends(TOKENIZERS.get(tokenizer), _text)


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Laying out the graph…")
def graph_view(graph_key: str, _graph: Graph, hops_key: str, _hops: dict[str, float]
               ) -> tuple[GraphView, dict[str, tuple[float, float]]]:
    """The nodes to draw and their fixed positions: the whole graph's own seeded layout (the same for any seeds,
    budget or format) when it is drawn whole, else rings by hop tier around these seeds (a force layout of
    hundreds of nodes is a hairball). Never live physics, which moved every node at each budget step."""
    view = select_view(_graph, _hops)
    if view.needs_fixed_layout or not view.complete:
        return view, layout_positions(view)
    return view, whole_graph_positions(graph_key, _graph)


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Laying out the graph…")
def whole_graph_positions(graph_key: str, _graph: Graph) -> dict[str, tuple[float, float]]:
    """core.graph.view.graph_positions, computed once per graph and kept."""
    return graph_positions(_graph)


def generated_graph(name: str, arguments: tuple[tuple[str, object], ...]) -> Graph:
    key = ("generated", name, arguments)
    found = _graphs().get(key)
    if found is not None:
        return found
    with st.spinner(f"Generating the {name} graph…"), fewer_collections():
        graph = GENERATORS.get(name)(**dict(arguments))
        _ = graph.content_key  # hashed once here, behind the spinner, rather than by the first cache that asks
        _graphs().put(key, graph)  # before the spinner ends (see account)
    return graph


@st.cache_resource(max_entries=16, show_spinner="Loading the sample…")
def sample_graph(name: str) -> Graph:
    return load_sample(name)


def complete_tokens(graph_key: str, graph: Graph, tokenizer: str, shown: tuple[str, ...]) -> dict[str, int]:
    """What each format's complete text counts against a budget, grammar included (core): every registered
    format's, or on a large graph (dashboard.large_graph) only the `shown` formats', read off the renderings
    the Contexts page cuts under its default settings (canonical order, nodes then edges), so a large graph's
    complete texts are rendered and counted once; while they are, a status box says which and how long each took."""
    if not large(graph):
        return _every_complete_tokens(graph_key, graph, tokenizer)
    specs = _default_specs(graph, tokenizer, shown)
    began, started = st.session_state.pop(COUNTING_STARTED, (time.monotonic(), frozenset()))
    # What this open renders: what is not kept yet, and what the sidebar started (it may be in already)
    missing = [spec for spec in specs.values() if spec.key not in workbench().renderings or spec.key in started]
    # Drawn on every run of a large graph, so the elements after it keep their places in the next run
    # (one element fewer would leave the old ones on screen, greyed, until the run ends).
    slot = st.empty()
    if missing:
        with slot.container():
            _render_with_status(graph, missing, began)
    return {name: session_defaults.rendered_tokens(account(spec), spec.format) for name, spec in specs.items()}


def start_counting(graph: Graph, tokenizer: str, shown: tuple[str, ...]) -> None:
    """On a large graph, start the renderings `complete_tokens` will wait for, all but the last (which it makes in
    this process), each in a thread of its own while the sidebar draws on: `Workbench.account_many`'s split, begun
    a second or two before the budgets ask for the counts."""
    if large(graph):
        bench = workbench()
        missing = [spec for spec in _default_specs(graph, tokenizer, shown).values() if spec.key not in bench.renderings]
        started = bench.account_in_background(missing[:-1])
        if started:
            st.session_state[COUNTING_STARTED] = (time.monotonic(), frozenset(spec.key for spec in started))


COUNTING_STARTED = "counting_started"  # (when, which rendering keys) start_counting began, for complete_tokens


def _default_specs(graph: Graph, tokenizer: str, shown: tuple[str, ...]) -> dict[str, RenderingSpec]:
    """The shown formats' renderings under the Contexts page's default settings (canonical order, nodes then edges)."""
    return {name: rendering_spec(graph, name, "canonical", LAYOUTS[0], (), frozenset(), tokenizer) for name in shown}


def _render_with_status(graph: Graph, missing: list[RenderingSpec], began: float) -> None:
    units = len(graph.nodes) + len(graph.edges)
    figures = graph_figures(graph)
    with st.status(f"Opening a large graph ({units:,} nodes and edges): rendering and counting the formats on screen",
                   expanded=True) as status:
        status.write(f"The graph: {figures.nodes:,} nodes of {len(figures.node_types):,} types, {figures.edges:,} edges "
                     f"of {len(figures.relations):,} relations, {figures.property_values:,} property values. The budget "
                     "controls start from the exact tokens of the formats on screen, counted now: they appear in the "
                     "sidebar when the counts are in (the Overview below can be read meanwhile, and measures the "
                     "other formats only when asked).")
        status.write(f"Rendering the complete text of {', '.join(spec.format.name for spec in missing)} and counting "
                     "every record's tokens…")
        # At the same time (threads: one is counted, its encode without the GIL, while another is made): the
        # largest graph's pretty_json and compact_json took 5-6 s one after the other.
        with fewer_collections():
            accountings = workbench().account_many(missing)
        for spec, accounting in zip(missing, accountings):
            status.write(f"{spec.format.name}: {accounting.records:,} records, {accounting.total:,} tokens")
        status.update(label=f"Rendered and counted {', '.join(spec.format.name for spec in missing)} in "
                            f"{time.monotonic() - began:,.1f} s", state="complete", expanded=False)


@st.cache_resource(max_entries=USER_DATA_ENTRIES, show_spinner="Counting every format's complete text…")
def _every_complete_tokens(graph_key: str, _graph: Graph, tokenizer: str) -> dict[str, int]:
    return session_defaults.complete_tokens(_graph, tokenizer)


@st.cache_data(max_entries=USER_DATA_ENTRIES, show_spinner="Counting tokens…")
def walkthrough_budget(graph_key: str, _graph: Graph, format_name: str, tokenizer: str) -> int:
    """dashboard.state.teaching.tight_budget: a quarter of the format's complete text."""
    return tight_budget(_graph, format_name, tokenizer)


@st.cache_resource
def workbench() -> Workbench:
    """The server's workbench (core.workbench): every session's pages cut the renderings it keeps. Graphs are
    immutable and renderings are kept by content, so sessions share them safely; a warm session opens at once.
    Bounded by the bytes the renderings hold (ACCOUNTINGS_BYTES), not by their number."""
    return Workbench(rendering_cache(ACCOUNTINGS_BYTES, keep_seconds=KEEP_SECONDS))


def rendering_spec(graph: Graph, format: str, ordering: str, layout: str, seeds: tuple[str, ...],
                   evidence: frozenset[str], tokenizer: str, question: str = "") -> RenderingSpec:
    """The spec of a page's rendering of the whole graph (each format in a layout it can show)."""
    return RenderingSpec.from_names(graph, format, ordering_name=ordering, layout=effective_layout(format, layout),
                                    tokenizer_name=tokenizer, seeds=seeds, evidence=evidence, question=question)


def account(spec: RenderingSpec) -> PrefixTokens:
    """The rendering every budget and policy of a page cuts, from the workbench (built behind a spinner)."""
    bench, graph = workbench(), spec.graph
    if spec.key in bench.renderings:
        return bench.account(spec)
    # fewer_collections: a rendering keeps its records, and young collections would scan them again and again.
    # The workbench keeps what it built before the spinner ends: a click during the build ends this run at the
    # next Streamlit call (the spinner's end), and what was built would otherwise be lost and built again.
    with st.spinner(f"Rendering {spec.format.name} and counting its tokens "
                    f"({len(graph.nodes) + len(graph.edges):,} units)…"), fewer_collections():
        return bench.account(spec)


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


@st.cache_resource
def _layouts() -> SizedCache[tuple[str, np.ndarray]]:
    return SizedCache(LAYOUTS_BYTES, layout_bytes, keep_seconds=KEEP_SECONDS)


def text_layout(rendering_key: str, accounting: PrefixTokens) -> tuple[str, np.ndarray]:
    """A rendering's complete text and where each record starts and the last ends, in characters
    (`record_bounds`; bounded by the bytes they hold, LAYOUTS_BYTES)."""
    def build() -> tuple[str, np.ndarray]:
        rendering = accounting.rendering
        return rendering.text, record_bounds(rendering.preamble, [record.text for record in rendering.records])

    return _layouts().get_or_build(rendering_key, build)


def evidence_records(accounting: PrefixTokens, evidence: frozenset[str]) -> list[int]:
    """The records that carry evidence of this query, in order (a rendering's key does not hold the query: the
    records were kept with its text, and a page asking another query of the same rendering underlined the
    first query's records)."""
    where = accounting.record_of_key
    return sorted({where[key] for key in evidence if key in where})
