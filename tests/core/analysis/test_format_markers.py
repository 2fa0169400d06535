"""The curves' markers: the coverage budget D_k(S) and the complete rendering's budgeted tokens."""

from __future__ import annotations

from core.analysis.budget_sweep import budget_sweep, effective_layout
from core.analysis.format_markers import format_markers
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample
from core.metrics.coverage import coverage_tokens, seed_region
from core.retrieval.seeds import Seeds
from core.tokens import TOKENIZERS

SAMPLE = default_sample()
GRAPH = load_sample(SAMPLE.name)
QUERY = SAMPLE.default_query()
SEEDS = Seeds(tuple(SAMPLE.seeds))


def test_markers_are_the_coverage_budget_and_the_complete_rendering():
    markers = format_markers(GRAPH, QUERY, SEEDS, formats=["typed_edges"], ordering="hop_tiers", layout="interleaved")
    row = markers.iloc[0]
    encoder = TOKENIZERS.get("o200k_base")
    assert row["coverage_tokens"] == coverage_tokens(seed_region(GRAPH, SEEDS.node_ids), FORMATS.get("typed_edges"),
                                                     2, encoder, layout=effective_layout("typed_edges", "interleaved"))
    frame = budget_sweep(GRAPH, QUERY, SEEDS, formats=["typed_edges"], orderings=["hop_tiers"], layout="interleaved",
                         policies=["record"], budgets=(row["full_tokens"] - 1, row["full_tokens"]))
    assert frame["records_kept"].tolist()[1] == frame["records_total"].tolist()[1]
    assert frame["records_kept"].tolist()[0] < frame["records_total"].tolist()[0]


def test_progress_names_each_format_before_measuring_it():
    heard = []
    format_markers(GRAPH, QUERY, SEEDS, formats=["csv", "jsonl"], ordering="canonical", layout="nodes_then_edges",
                   progress=lambda done, total, name: heard.append((done, total, name)))
    assert heard == [(0, 2, "csv"), (1, 2, "jsonl"), (2, 2, "")]
