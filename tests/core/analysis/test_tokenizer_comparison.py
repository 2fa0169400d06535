"""Side-by-side tokenizers: counts per format, ranks, the winner sentence, sweeps and Pareto per tokenizer."""

from __future__ import annotations

import pandas as pd

from core.analysis.sweep import sweep
from core.analysis.tokenizer_comparison import (
    format_ranks,
    pareto_per_tokenizer,
    sweep_over_tokenizers,
    tokens_per_format,
    tokens_side_by_side,
    winner_sentence,
)
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.io.samples import default_sample, load_sample
from core.queries import IMPACT_OWNERS, query
from core.specs import SweepSpec
from core.tokens import TOKENIZERS

GRAPH = service_graph(12, 14, 7)
QUERY = query(IMPACT_OWNERS, failed="db-identity")


def test_every_registered_tokenizer_counts_every_format_exactly():
    table = tokens_per_format(GRAPH)
    assert list(table.columns) == TOKENIZERS.names() and list(table.index) == FORMATS.names()
    text = FORMATS.get("csv").render(GRAPH, graph_units(GRAPH)).text
    for name in TOKENIZERS:
        assert table.loc["csv", name] == TOKENIZERS.get(name).count(text)


def test_ranks_are_places_by_tokens_within_each_tokenizer():
    table = pd.DataFrame({"a": [30, 10, 20], "b": [10, 10, 40]}, index=pd.Index(["jsonl", "csv", "toon"], name="format"))
    assert format_ranks(table).to_dict() == {"a": {"jsonl": 3, "csv": 1, "toon": 2}, "b": {"jsonl": 1, "csv": 1, "toon": 3}}


def test_the_sentence_says_where_the_cheapest_lossless_format_changes():
    table = pd.DataFrame({"o200k_base": [1010, 1018, 900], "tekken": [1320, 1508, 1000]},
                         index=pd.Index(["csv", "compact_json", "untyped_pairs"], name="format"))
    assert not FORMATS.get("untyped_pairs").lossless  # lossy: never the winner
    assert winner_sentence(table) == ("The cheapest lossless format is csv under every tokenizer compared "
                                      "(o200k_base, tekken: 1,010, 1,320 tokens).")
    table.loc["compact_json", "o200k_base"] = 1000
    assert winner_sentence(table) == (
        "The cheapest lossless format changes with the tokenizer: compact_json under o200k_base (1,000 tokens under "
        "o200k_base, 1.0% fewer than csv); csv under tekken (1,320 tokens under tekken, 12.5% fewer than compact_json).")


def test_a_sweep_over_tokenizers_stacks_one_sweep_per_tokenizer():
    options = dict(format_names=["jsonl", "csv"], ordering_names=["canonical"], budgets=[128, 512])
    frame = sweep_over_tokenizers(SweepSpec.from_names(GRAPH, [QUERY], **options), ["o200k_base", "tekken"])
    assert frame.attrs["parameters"]["tokenizer"] == ["o200k_base", "tekken"]
    for name in ("o200k_base", "tekken"):
        alone = sweep(SweepSpec.from_names(GRAPH, [QUERY], tokenizer_name=name, **options))
        part = frame[frame["tokenizer"] == name].reset_index(drop=True)
        pd.testing.assert_frame_equal(part, alone, check_dtype=False)


def test_pareto_compares_formats_only_within_a_tokenizer():
    rows = [{"tokenizer": tokenizer, "ordering": "canonical", "layout": "nodes_then_edges", "policy": "record",
             "budget": 100, "format": name, "budgeted_tokens": tokens, "traversal_accuracy": 1.0}
            for tokenizer, name, tokens in [("a", "csv", 90), ("a", "jsonl", 95), ("b", "csv", 99), ("b", "jsonl", 80)]]
    verdicts = pareto_per_tokenizer(pd.DataFrame(rows)).set_index(["tokenizer", "format"])
    assert verdicts.loc[("a", "jsonl"), "dominated_by"] == "csv" and not verdicts.loc[("a", "csv"), "dominated"]
    assert verdicts.loc[("b", "csv"), "dominated_by"] == "jsonl" and not verdicts.loc[("b", "jsonl"), "dominated"]


SAMPLE_GRAPH = load_sample(default_sample().name)


def test_tokenizers_side_by_side_count_each_complete_text_exactly():
    table = tokens_side_by_side(SAMPLE_GRAPH, ["o200k_base", "cl100k_base"], ["csv", "pretty_json"])
    text = FORMATS.get("csv").render(SAMPLE_GRAPH, graph_units(SAMPLE_GRAPH)).text
    assert table.loc["csv", "cl100k_base"] == TOKENIZERS.get("cl100k_base").count(text)
    assert table.loc["csv", "o200k_base"] == TOKENIZERS.get("o200k_base").count(text)
    assert table.loc["csv", "cl100k_base - o200k_base"] == table.loc["csv", "cl100k_base"] - table.loc["csv", "o200k_base"]
