"""The analysis pages' figures: budget lists, sweeps per effective layout, markers, Pareto and efficiency tables."""

from __future__ import annotations

import pytest

from core.analysis import (
    DEFAULT_BUDGET_LIST,
    best_lossless,
    budget_sweep,
    dominated_formats,
    effective_layout,
    efficiency_table,
    format_markers,
    pareto_points,
    parse_budgets,
)
from core.coverage import coverage_tokens, seed_region
from core.errors import ParameterError
from core.registry import FORMATS, TOKENIZERS
from core.samples import default_sample, load_sample
from core.seeds import Seeds

SAMPLE = default_sample()
GRAPH = load_sample(SAMPLE.name)
QUERY = SAMPLE.default_query()
SEEDS = Seeds(tuple(SAMPLE.seeds))


def test_budget_lists_are_read_sorted_and_without_repeats():
    assert parse_budgets("4096, 256 1024,256") == (256, 1024, 4096)
    assert parse_budgets(", ".join(map(str, DEFAULT_BUDGET_LIST))) == DEFAULT_BUDGET_LIST


@pytest.mark.parametrize("text", ["", "12a", "-5", "0", "1.5", ",".join(str(n) for n in range(1, 40))])
def test_a_bad_budget_list_says_how_to_fix_it(text):
    with pytest.raises(ParameterError, match="budget"):
        parse_budgets(text)


def test_a_sweep_draws_each_format_in_a_layout_it_can_show():
    frame = budget_sweep(GRAPH, QUERY, SEEDS, formats=["pretty_json", "typed_edges"], orderings=["hop_tiers"],
                         layout="interleaved", budgets=(256, 4096))
    layouts = dict(zip(frame["format"], frame["layout"]))
    assert layouts == {name: effective_layout(name, "interleaved") for name in ("pretty_json", "typed_edges")}
    assert len(frame) == 2 * 2 * 2  # formats x policies x budgets, one query


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


def test_the_efficiency_table_names_the_best_lossless_format_and_its_rds():
    frame = budget_sweep(GRAPH, QUERY, SEEDS, formats=["pretty_json", "typed_edges", "untyped_pairs"],
                         orderings=["hop_tiers"], layout="interleaved", policies=["record"], budgets=(512, 4096))
    table = efficiency_table(frame, "evidence survival")
    best = best_lossless(table)
    assert FORMATS.get(best).lossless
    lossless = table[table["lossless"]]
    assert lossless.set_index("format").loc[best, "efficiency"] == lossless["efficiency"].max()
    row = table.set_index("format").loc["pretty_json"]
    assert row["rds"] == pytest.approx(row["mean_accuracy"] / row["mean_tokens"])
    assert row["efficiency"] == pytest.approx(1000 * row["rds"])
    assert set(dominated_formats(frame, "evidence survival")["format"]) == set(table[table["dominated"]]["format"])
    points = pareto_points(frame, "traversal accuracy")
    assert set(points["budget"]) == {512, 4096} and points.groupby("budget")["pareto_optimal"].any().all()


def test_tokenizers_side_by_side_count_each_complete_text_exactly():
    from core.analysis import tokenizer_comparison
    from core.units import graph_units

    table = tokenizer_comparison(GRAPH, ["o200k_base", "cl100k_base"], ["csv", "pretty_json"])
    text = FORMATS.get("csv").render(GRAPH, graph_units(GRAPH)).text
    assert table.loc["csv", "cl100k_base"] == TOKENIZERS.get("cl100k_base").count(text)
    assert table.loc["csv", "o200k_base"] == TOKENIZERS.get("o200k_base").count(text)
    assert table.loc["csv", "cl100k_base - o200k_base"] == table.loc["csv", "cl100k_base"] - table.loc["csv", "o200k_base"]


def test_survival_curves_hold_every_metric_of_every_cut():
    from core.analysis import SURVIVAL_METRICS, survival_curves

    frame = budget_sweep(GRAPH, QUERY, SEEDS, formats=["csv"], orderings=["canonical"], layout="interleaved",
                         budgets=(256, 2048))
    curves = survival_curves(frame)
    assert len(curves) == len(SURVIVAL_METRICS) * len(frame)
    parse = curves[curves["metric"] == "parse ok"]
    assert parse["value"].tolist() == frame["parse_ok"].astype(float).tolist()
