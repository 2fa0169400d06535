"""The Pareto and Exports pages' tables: Pareto points, dominated formats, efficiency and RDS."""

from __future__ import annotations

import pytest

from core.analysis.budget_sweep import budget_sweep
from core.analysis.pareto_tables import best_lossless, dominated_formats, efficiency_table, pareto_points
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample
from core.retrieval.seeds import Seeds

SAMPLE = default_sample()
GRAPH = load_sample(SAMPLE.name)
QUERY = SAMPLE.default_query()
SEEDS = Seeds(tuple(SAMPLE.seeds))


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
