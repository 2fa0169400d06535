"""The Budget survival page's curves: every metric of every cut, in long form."""

from __future__ import annotations

from core.analysis.budget_sweep import budget_sweep
from core.analysis.survival_curves import SURVIVAL_METRICS, survival_curves
from core.io.samples import default_sample, load_sample
from core.retrieval.seeds import Seeds

SAMPLE = default_sample()
GRAPH = load_sample(SAMPLE.name)
QUERY = SAMPLE.default_query()
SEEDS = Seeds(tuple(SAMPLE.seeds))


def test_survival_curves_hold_every_metric_of_every_cut():
    frame = budget_sweep(GRAPH, QUERY, SEEDS, formats=["csv"], orderings=["canonical"], layout="interleaved",
                         budgets=(256, 2048))
    curves = survival_curves(frame)
    assert len(curves) == len(SURVIVAL_METRICS) * len(frame)
    parse = curves[curves["metric"] == "parse ok"]
    assert parse["value"].tolist() == frame["parse_ok"].astype(float).tolist()

