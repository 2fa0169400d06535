"""The analysis pages' sweep: each format in a layout it can show, one row per cut."""

from __future__ import annotations

from core.analysis.budget_sweep import budget_sweep, effective_layout
from core.io.samples import default_sample, load_sample
from core.retrieval.seeds import Seeds

SAMPLE = default_sample()
GRAPH = load_sample(SAMPLE.name)
QUERY = SAMPLE.default_query()
SEEDS = Seeds(tuple(SAMPLE.seeds))


def test_a_sweep_draws_each_format_in_a_layout_it_can_show():
    frame = budget_sweep(GRAPH, QUERY, SEEDS, formats=["pretty_json", "typed_edges"], orderings=["hop_tiers"],
                         layout="interleaved", budgets=(256, 4096))
    layouts = dict(zip(frame["format"], frame["layout"]))
    assert layouts == {name: effective_layout(name, "interleaved") for name in ("pretty_json", "typed_edges")}
    assert len(frame) == 2 * 2 * 2  # formats x policies x budgets, one query
