"""Token anatomy: the categories sum exactly to the token count, on every format, adversarial text too."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.token_anatomy import (
    CATEGORIES,
    MARKER,
    NODE_IDS,
    PREAMBLE,
    STRUCTURE,
    TYPES,
    VALUES,
    Span,
    cut_anatomy,
    rendering_anatomy,
    rendering_spans,
    text_anatomy,
)
from core.budget import DEFAULT_POLICIES
from core.budget.policies import cut, grammar_tokens
from core.formats import FORMATS
from core.formats.base import Atom, Record, Rendering
from core.graph.units import graph_units
from core.io.samples import load_sample
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

ALL = FORMATS.names()
O200K = TOKENIZERS.get("o200k_base")


def rendered(name, graph):
    return FORMATS.get(name).render(graph, graph_units(graph))


@pytest.mark.parametrize("tokenizer", TOKENIZERS.names())
@pytest.mark.parametrize("name", ALL)
def test_categories_sum_to_the_tokens_of_the_adversarial_sample(name, tokenizer):
    encoder = TOKENIZERS.get(tokenizer)
    format_ = FORMATS.get(name)
    rendering = rendered(name, load_sample("adversarial"))
    anatomy = rendering_anatomy(rendering, format_, encoder)
    assert set(anatomy.tokens) == set(CATEGORIES)
    assert anatomy.total == encoder.count(rendering.text) + grammar_tokens(format_, encoder)
    assert anatomy.tokens[PREAMBLE] >= grammar_tokens(format_, encoder)
    assert anatomy.tokens[MARKER] == 0


@pytest.mark.parametrize("name", ALL)
@cross_product(60, small=10)
@given(graph=graphs(), data=st.data())
def test_categories_of_every_cut_sum_to_its_budgeted_tokens(name, graph, data):
    format_ = FORMATS.get(name)
    accounting = prefix_tokens(rendered(name, graph), O200K)
    budget = data.draw(st.integers(min_value=0, max_value=accounting.total + 200))
    policy = data.draw(st.sampled_from(DEFAULT_POLICIES))
    marker = data.draw(st.booleans())
    result = cut(accounting, format_, policy, budget, marker=marker)
    anatomy = cut_anatomy(result, format_, O200K)
    assert anatomy.total == result.budgeted_tokens
    assert anatomy.total == (O200K.count(result.text) if result.text else 0) + result.grammar_tokens
    assert anatomy.tokens[MARKER] == 0 or result.marker


def test_atoms_decide_the_category_of_their_tokens():
    record = Record("  id=alpha type=Service dep->beta k=quite long value\n", ("n:alpha",),
                    (Atom(5, 10, "node_id"), Atom(16, 23, "node_type"), Atom(24, 27, "relation"),
                     Atom(29, 33, "node_id"), Atom(34, 35, "property_key"), Atom(36, 52, "property_value")))
    rendering = Rendering("demo", "# demo graph\n", (record,), ("", ""))
    counts = text_anatomy(rendering.text, rendering_spans(rendering), O200K)
    assert sum(counts.values()) == O200K.count(rendering.text)
    for category in (NODE_IDS, TYPES, VALUES, PREAMBLE, STRUCTURE):
        assert counts[category] > 0, category
    assert counts[MARKER] == 0


def test_a_straddling_token_goes_to_the_category_holding_most_of_its_bytes():
    # "abcdef" is one token in o200k_base; five of its six bytes are a value.
    assert O200K.count("abcdef") == 1
    assert text_anatomy("abcdef", [Span(1, 6, VALUES)], O200K)[VALUES] == 1
    assert text_anatomy("abcdef", [Span(4, 6, VALUES)], O200K)[STRUCTURE] == 1
    # a tie goes to the category of the token's first byte
    assert text_anatomy("abcdef", [Span(0, 3, NODE_IDS), Span(3, 6, VALUES)], O200K)[NODE_IDS] == 1


def test_a_token_inside_one_multibyte_character_takes_that_characters_category():
    text = "🕸️🕸️"
    counts = text_anatomy(text, [Span(0, len(text), VALUES)], O200K)
    assert counts[VALUES] == O200K.count(text) and O200K.count(text) > len(text) // 2


def test_lone_surrogates_count_as_tiktoken_counts_them():
    text = "a\ud800b"
    assert sum(text_anatomy(text, [Span(1, 2, VALUES)], O200K).values()) == O200K.count(text.replace("\ud800", "\ufffd"))


def test_an_empty_cut_is_only_its_grammar():
    format_ = FORMATS.get("pretty_json")
    accounting = prefix_tokens(rendered("pretty_json", load_sample("tinkerpop-modern")), O200K)
    anatomy = cut_anatomy(cut(accounting, format_, "record", 1), format_, O200K)
    assert anatomy.tokens == {**dict.fromkeys(CATEGORIES, 0), PREAMBLE: grammar_tokens(format_, O200K)}


def test_a_compact_format_pays_less_syntax_tax_than_pretty_json():
    graph = load_sample("reference-services")
    pretty = rendering_anatomy(rendered("pretty_json", graph), FORMATS.get("pretty_json"), O200K)
    compact = rendering_anatomy(rendered("typed_edges", graph), FORMATS.get("typed_edges"), O200K)
    assert compact.tokens[STRUCTURE] < pretty.tokens[STRUCTURE]
    assert 0 < compact.syntax_tax < pretty.syntax_tax < 1
