"""Prefix token accounting: every count equals a direct encode_ordinary of the text it counts."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.formats import FORMATS
from core.formats.base import Record, Rendering
from core.graph.hops import hop_units
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, layouts_for, order_units
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens
from core.tokens.tokenizers.families import CL100K
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

O200K = TOKENIZERS.get("o200k_base")


def rendering_of(*texts: str, preamble: str = "", closing: str = "") -> Rendering:
    records = tuple(Record(text, (f"n:{index}",)) for index, text in enumerate(texts))
    return Rendering("test", preamble, records, (closing,) * (len(records) + 1))


EXAMPLES = 25  # per format and tokenizer, in the exhaustive tier (8 otherwise)


@pytest.mark.parametrize("tokenizer_name", TOKENIZERS.names())
@pytest.mark.parametrize("name", FORMATS.names())
@cross_product(EXAMPLES, small=8)
@given(graph=graphs(), data=st.data())
def test_every_prefix_count_equals_a_direct_encode(name, tokenizer_name, graph, data):
    format_ = FORMATS.get(name)
    tokenizer = TOKENIZERS.get(tokenizer_name)
    seeds = (data.draw(st.sampled_from(graph.nodes)).id,)
    inputs = OrderingInputs(seeds=seeds, shuffle_seed=data.draw(st.integers(0, 99)),
                            evidence=frozenset(unit.key for unit in graph_units(graph)[::2]))
    ordering = ORDERINGS.get(data.draw(st.sampled_from(ORDERINGS.names())))
    layout = data.draw(st.sampled_from(layouts_for(format_)))
    rendering = format_.render(graph, order_units(graph, hop_units(graph, seeds), ordering, layout, inputs))
    accounting = prefix_tokens(rendering, tokenizer)
    assert accounting.counts.tolist() == [tokenizer.count(rendering.prefix_text(k))
                                          for k in range(len(rendering.records) + 1)]
    assert accounting.full_tokens.tolist() == tokenizer.encode(rendering.text)
    records = data.draw(st.integers(0, len(rendering.records)))
    suffix = data.draw(st.sampled_from(["\n[3 of 9 records shown]", "\n", "/x", " ", "'s", "\n\n"]))
    assert accounting.count(records, suffix) == tokenizer.count(rendering.prefix_text(records) + suffix)
    budget = data.draw(st.integers(0, accounting.total + 2))
    text, tokens, _ = accounting.raw_prefix(budget, suffix)
    assert text == tokenizer.decode(accounting.full_tokens[:budget].tolist())
    assert tokens == tokenizer.count(text + suffix)


def test_the_reference_graph_is_exact_in_every_format_and_tokenizer():
    graph = service_graph(40, 80, 7)
    for name in FORMATS:
        rendering = FORMATS.get(name).render(graph, graph_units(graph))
        for tokenizer in map(TOKENIZERS.get, TOKENIZERS.names()):
            accounting = prefix_tokens(rendering, tokenizer)
            for k in range(0, len(rendering.records) + 1, 7):
                assert accounting.counts[k] == tokenizer.count(rendering.prefix_text(k))


def test_boundaries_that_merge_across_records_are_re_encoded():
    # "},\n\n" is one pre-token; in o200k_base ",\n/" takes the slash that starts the next line.
    rendering = rendering_of('{"a":1}', ",\n\n", '{"b":2}', ",\n/x", "ab'", "s", preamble="[", closing="]")
    accounting = prefix_tokens(rendering, O200K)
    for k in range(len(rendering.records) + 1):
        assert accounting.counts[k] == O200K.count(rendering.prefix_text(k))
    assert accounting.marginal_tokens().sum() == accounting.counts[-1] - accounting.counts[0]


def test_lone_surrogates_count_as_tiktoken_counts_them():
    rendering = rendering_of("x\ud800y", "\nz")
    accounting = prefix_tokens(rendering, O200K)
    assert accounting.counts.tolist() == [0, O200K.count("x\ud800y"), O200K.count("x\ud800y\nz")]


def test_a_tokenizer_whose_pattern_was_not_analysed_is_still_exact():
    tokenizer = dataclasses.replace(CL100K, name="unanalysed", pattern=r"\w+|\s+")
    rendering = rendering_of("alpha", " beta", "\ngamma", closing="!")
    accounting = prefix_tokens(rendering, tokenizer)
    assert accounting._anchors.tolist() == [0, 0, 0, 0]
    assert accounting.counts.tolist() == [tokenizer.count(rendering.prefix_text(k)) for k in range(4)]


@pytest.mark.parametrize("name", ["qwen", "llama3"])
def test_text_a_normalizing_tokenizer_changes_is_re_encoded_exactly(name):
    tokenizer = TOKENIZERS.get(name)
    decomposed = "Cafe\u0301"  # NFC composes it to "Café"
    rendering = rendering_of(f'{{"id":"{decomposed}"}}', ",\n", '{"id":"x\u0301y"}', preamble="[", closing="]")
    accounting = prefix_tokens(rendering, tokenizer)
    assert accounting.counts.tolist() == [tokenizer.count(rendering.prefix_text(k)) for k in range(4)]
    assert accounting.count(1, "\u0301") == tokenizer.count(rendering.prefix_text(1) + "\u0301")
    for budget in range(accounting.total + 1):
        text, tokens, _ = accounting.raw_prefix(budget)
        assert tokens == tokenizer.count(text)


def test_records_within_counts_only_whole_records():
    rendering = rendering_of("abc", "def", preamble="P")
    accounting = prefix_tokens(rendering, O200K)
    assert [accounting.records_within(size) for size in range(9)] == [0, 0, 0, 0, 1, 1, 1, 2, 2]


@pytest.mark.parametrize("name", FORMATS.names())
def test_an_empty_graph_is_accounted_in_every_format(name):
    from core.graph.model import Graph
    empty = Graph.build([], [])
    rendering = FORMATS.get(name).render(empty, graph_units(empty))
    accounting = prefix_tokens(rendering, O200K)
    assert accounting.counts.tolist() == [O200K.count(rendering.text)] and accounting.records == 0
