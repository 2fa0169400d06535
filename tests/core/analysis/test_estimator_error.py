"""Estimator error per format and tokenizer: sizes from the text, the exact count from tiktoken, worked by hand."""

from __future__ import annotations

import math

from core.analysis.estimator_error import complete_text_specs, estimator_error
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.samples import load_sample
from core.tokens import TOKENIZERS
from core.workbench import Workbench

GRAPH = load_sample("tinkerpop-modern")
ENCODING = TOKENIZERS.get("cl100k_base").encoding


def test_each_estimators_error_matches_a_hand_computation_on_the_complete_text():
    bench = Workbench()
    errors = bench.estimator_error(complete_text_specs(GRAPH, ["compact_json", "semantic_text"], ["cl100k_base"]))
    assert [item.format_name for item in errors] == ["compact_json", "semantic_text"]
    for item in errors:
        text = FORMATS.get(item.format_name).render(GRAPH, graph_units(GRAPH)).text
        exact = len(ENCODING.encode_ordinary(text))
        assert (item.characters, item.words, item.exact) == (len(text), len(text.split()), exact)
        by_hand = (math.ceil(len(text) / 4), math.ceil(len(text) / 3), math.ceil(len(text.split()) * 13 / 10))
        assert item.estimates == by_hand
        assert item.errors == tuple((estimate - exact) / exact for estimate in by_hand)


def test_dense_json_is_under_counted_by_words_and_prose_far_less():
    bench = Workbench()
    errors = {item.format_name: item for item in
              bench.estimator_error(complete_text_specs(GRAPH, ["compact_json", "semantic_text"]))}
    words = 2  # the index of words × 1.3
    assert errors["compact_json"].words == 1  # no whitespace at all: one "word"
    assert errors["compact_json"].errors[words] < -0.9 < -0.3 < errors["semantic_text"].errors[words]


def test_the_specs_cover_every_format_under_each_tokenizer_in_turn():
    specs = complete_text_specs(GRAPH, tokenizer_names=["o200k_base", "llama3"])
    assert len(specs) == 2 * len(FORMATS)
    assert [spec.tokenizer.name for spec in specs[:: len(FORMATS)]] == ["o200k_base", "llama3"]
    assert {spec.ordering.name for spec in specs} == {"canonical"}


def test_the_json_row_writes_each_error_as_a_percentage_with_one_decimal():
    accounting = Workbench().account(complete_text_specs(GRAPH, ["csv"])[0])
    row = estimator_error(accounting).as_dict()
    text = accounting.rendering.text
    by_hand = 100 * (math.ceil(len(text) / 4) - accounting.total) / accounting.total
    assert row["exact"] == accounting.total and row["estimators"]["chars/4"]["error_percent"] == round(by_hand, 1)
