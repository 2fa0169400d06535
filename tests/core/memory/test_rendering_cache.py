"""The renderings a workbench keeps: the same accounting for the same key, within the bytes it may hold."""

from __future__ import annotations

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.memory.held_bytes import accounting_bytes
from core.memory.rendering_cache import rendering_cache
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens


def test_the_cache_returns_the_same_accounting_and_stays_within_its_size():
    graph = service_graph(10, 10, 7)
    rendering = FORMATS.get("jsonl").render(graph, graph_units(graph))
    built = []

    def build():
        built.append(1)
        return prefix_tokens(rendering, TOKENIZERS.get("o200k_base"))

    cache = rendering_cache(accounting_bytes(build()) + 1)  # room for one
    first = cache.get_or_build(("g", "jsonl"), build)
    assert cache.get_or_build(("g", "jsonl"), build) is first and len(built) == 2
    cache.get_or_build(("g", "jsonl", "again"), build)
    assert len(cache) == 1 and ("g", "jsonl", "again") in cache  # the older entry made room
    cache.clear()
    assert len(cache) == 0
