"""A raw cut says what its budget holds: the first tokens of the text and the grammar's tokens beside them."""

from __future__ import annotations

from core.budget.policies import cut
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.samples import default_sample, load_sample
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens


def test_a_raw_cut_names_the_grammar_tokens_its_budget_counts():
    graph = load_sample(default_sample().name)
    format_ = FORMATS.get("pretty_json")
    accounting = prefix_tokens(format_.render(graph, graph_units(graph)), TOKENIZERS.get("o200k_base"))
    result = cut(accounting, format_, "raw", 1406)
    grammar = TOKENIZERS.get("o200k_base").count(format_.grammar)
    assert result.explanation == (f"kept the first {result.kept_tokens:,} of the text's {accounting.total:,} tokens"
                                  f" + {grammar:,} of the grammar")
    assert result.kept_tokens == result.tokens and result.tokens + grammar == 1406  # the two parts: the tokens used
