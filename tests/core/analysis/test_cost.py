"""Cost per question: a hand computation of input, cached prefix and output dollars."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.analysis.cost import (
    MINIMUM_CACHED_PREFIX,
    model_prices,
    price_source,
    priced_models,
    question_cost,
)
from core.budget.policies import cut
from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.prompt.answers import schema_for
from core.prompt.frame import PromptParts, fill
from core.prompt.pricing import PriceTable
from core.queries import IMPACT_OWNERS, query
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

O200K = TOKENIZERS.get("o200k_base")
GRAPH = service_graph(12, 14, 7)
QUERY = query(IMPACT_OWNERS, failed="db-identity")
SCHEMA = schema_for(QUERY.name, QUERY.solve(GRAPH).answer)
PRICES = PriceTable(2.5, 10.0, cached_input_per_million=1.25)


def a_cut(format_, budget=600):
    return cut(prefix_tokens(format_.render(GRAPH, graph_units(GRAPH)), O200K), format_, "record", budget,
               count_grammar=False)


def test_input_tokens_are_frame_question_grammar_and_context_billed_at_the_input_price():
    format_ = FORMATS.get("csv")
    result = a_cut(format_)
    question = QUERY.question_on(GRAPH)
    cost = question_cost(result, format_, O200K, SCHEMA, question, PRICES, output_tokens=100)
    frame = O200K.count(fill(PromptParts(SCHEMA.example_json(), "", "csv", "", "")))
    assert cost.frame_tokens == frame and cost.question_tokens == O200K.count(question)
    assert cost.grammar_tokens == O200K.count(format_.grammar) and cost.context_tokens == result.tokens
    total = frame + O200K.count(question) + O200K.count(format_.grammar) + result.tokens
    assert cost.input_tokens == total
    assert cost.dollars == pytest.approx(total * 2.5 / 1e6 + 100 * 10.0 / 1e6, rel=1e-12)
    assert cost.cacheable_tokens < MINIMUM_CACHED_PREFIX and not cost.cached and cost.dollars_cached == cost.dollars


def test_a_long_stable_prefix_is_billed_at_the_cached_read_price():
    format_ = replace(FORMATS.get("csv"), grammar="Read each row as one node or edge. " * 200)
    result = a_cut(format_)
    cost = question_cost(result, format_, O200K, SCHEMA, QUERY.question_on(GRAPH), PRICES)
    stable = cost.frame_tokens + cost.grammar_tokens + cost.preamble_tokens
    assert cost.cacheable_tokens == stable >= MINIMUM_CACHED_PREFIX and cost.cached
    assert cost.preamble_tokens == O200K.count(result.rendering.preamble)
    assert cost.dollars_cached == pytest.approx(stable * 1.25 / 1e6 + (cost.input_tokens - stable) * 2.5 / 1e6,
                                                rel=1e-12)
    assert cost.dollars_cached < cost.dollars


def test_prices_come_from_the_bundled_dated_table():
    prices = model_prices("gpt-4o-mini")
    assert prices.input_per_million == pytest.approx(0.15) and prices.output_per_million == pytest.approx(0.6)
    assert prices.cached_input_per_million == pytest.approx(0.075)
    source = price_source()
    assert source.package == "tokencost" and source.newest_dated_model >= "2025-01-01"
    assert source.describe() in prices.note and "gpt-4o-mini" in priced_models()
    with pytest.raises(ParameterError, match="no price"):
        model_prices("no-such-model")
