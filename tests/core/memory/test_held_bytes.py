"""The byte estimates a size-bounded cache weighs by, checked against what tracemalloc sees allocated."""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest

from core.formats import FORMATS, base
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.memory.held_bytes import accounting_bytes, graph_bytes, graph_with_memos_bytes, layout_bytes
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

GRAPH = service_graph(services=300, noise_edges=600)


def traced(build):
    """What `build()` returns and the bytes it still holds once built (the record memos let go)."""
    TOKENIZERS.get("o200k_base").count("load the vocabulary before measuring")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        value = build()
        base.forget_records(GRAPH)
        gc.collect()
        return value, tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("format_name", ["pretty_json", "csv", "semantic_text", "graphml"])
def test_an_accountings_estimate_is_within_a_third_of_what_it_holds(format_name):
    def build():
        accounting = prefix_tokens(FORMATS.get(format_name).render(GRAPH, graph_units(GRAPH)),
                                   TOKENIZERS.get("o200k_base"))
        _ = accounting.record_of_key  # the index a cut builds, counted in the estimate
        return accounting

    small = service_graph(services=3, noise_edges=0)  # what the first accounting loads once (token byte lengths)
    prefix_tokens(FORMATS.get(format_name).render(small, graph_units(small)), TOKENIZERS.get("o200k_base"))
    accounting, held = traced(build)
    assert 0.75 * held <= accounting_bytes(accounting) <= 1.33 * held


def test_a_text_layouts_estimate_is_within_a_third_of_what_it_holds():
    text = "".join(f"line {index}\n" for index in range(20_000))

    def build():  # the bounds of 20,000 records of about ten characters
        return text, np.arange(20_001, dtype=np.int64) * 10

    layout, held = traced(build)  # the text existed before: count it on top
    assert 0.75 * held <= layout_bytes(layout) - len(text) - 49 <= 1.33 * held


def test_a_graphs_estimate_does_not_fall_short_of_what_it_holds():
    def build():
        graph = service_graph(services=300, noise_edges=600)
        _ = graph.content_key  # the canonical text it keeps once hashed
        return graph

    graph, held = traced(build)
    assert held <= graph_bytes(graph) <= 3 * held


def test_a_graph_with_the_memos_of_every_format_holds_no_more_than_its_estimate_with_memos():
    def build():
        graph = service_graph(services=100, noise_edges=200)
        _ = graph.content_key
        units = graph_units(graph)
        for name in FORMATS.names():  # 311 units in every format: every memo stays (RECORDS_KEPT is 200,000)
            FORMATS.get(name).render(graph, units)
        return graph

    TOKENIZERS.get("o200k_base").count("load the vocabulary before measuring")
    gc.collect()
    tracemalloc.start()
    try:
        graph = build()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(base.memos_held(graph)) > 30  # every format that memoises its records kept them
    assert held <= graph_with_memos_bytes(graph) <= 3 * held
