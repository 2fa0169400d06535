"""Pareto: dominance of (tokens, accuracy) points, ties, and the seed's rule across budgets."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from core.analysis.pareto import dominance_across_budgets, dominates, efficiency, pareto_front, pareto_per_budget
from core.errors import ParameterError


def points(*rows):
    return pd.DataFrame(rows, columns=["format", "tokens", "accuracy"])


def results(rows):
    frame = pd.DataFrame(rows, columns=["format", "budget", "budgeted_tokens", "traversal_accuracy"])
    return frame.assign(ordering="hop_tiers", layout="interleaved", policy="record")


def test_dominance_needs_no_worse_in_both_and_better_in_one():
    assert dominates((100, 0.9), (120, 0.9)) and dominates((100, 0.9), (100, 0.8))
    assert not dominates((100, 0.9), (100, 0.9))  # a tie
    assert not dominates((90, 0.5), (100, 0.9))  # a trade-off


def test_the_front_marks_non_dominated_points_and_names_their_dominators():
    front = pareto_front(points(("a", 100, 1.0), ("b", 80, 0.5), ("c", 120, 1.0), ("d", 120, 0.4),
                                ("e", 100, 1.0)))
    assert dict(zip(front["format"], front["pareto_optimal"])) == {"a": True, "b": True, "c": False, "d": False,
                                                                  "e": True}
    assert dict(zip(front["format"], front["dominated_by"]))["c"] == "a, e"
    assert dict(zip(front["format"], front["dominated_by"]))["d"] == "a, b, c, e"
    assert front["efficiency"].tolist()[:2] == [10.0, 6.25]


def test_per_budget_fronts_are_computed_within_each_budget_and_average_over_queries():
    frame = results([("a", 512, 500, 1.0), ("a", 512, 500, 0.0), ("b", 512, 400, 0.5),
                     ("a", 1024, 1000, 1.0), ("b", 1024, 1000, 1.0)])
    per_budget = pareto_per_budget(frame)
    at_512 = per_budget[per_budget["budget"] == 512].set_index("format")
    assert at_512.loc["a", "accuracy"] == 0.5 and at_512.loc["a", "rows"] == 2
    assert at_512.loc["a", "dominated_by"] == "b" and at_512.loc["b", "pareto_optimal"]
    assert per_budget[per_budget["budget"] == 1024]["pareto_optimal"].all()  # an exact tie


def test_across_budgets_a_format_is_dominated_only_if_beaten_or_matched_everywhere():
    frame = results([
        ("lean", 512, 500, 0.5), ("lean", 1024, 1000, 1.0),
        ("heavy", 512, 510, 0.5), ("heavy", 1024, 1000, 1.0),  # never better, worse once: dominated by lean
        ("twin", 512, 500, 0.5), ("twin", 1024, 1000, 1.0),  # equal to lean everywhere: not dominated
        ("mixed", 512, 500, 1.0), ("mixed", 1024, 1000, 0.0),  # better at one budget, worse at the other
    ])
    verdicts = dominance_across_budgets(frame).set_index("format")
    assert verdicts.loc["heavy", "dominated"] and verdicts.loc["heavy", "dominated_by"] == "lean, twin"
    assert not verdicts.loc["lean", "dominated"] and not verdicts.loc["twin", "dominated"]
    assert not verdicts.loc["mixed", "dominated"] and verdicts.loc["mixed", "budgets"] == 2
    assert verdicts.loc["lean", "efficiency"] == pytest.approx(0.75 * 1000 / 750)


def test_a_format_missing_a_budget_cannot_dominate_there():
    frame = results([("a", 512, 400, 1.0), ("b", 512, 500, 0.5), ("b", 1024, 900, 0.5)])
    verdicts = dominance_across_budgets(frame).set_index("format")
    assert not verdicts.loc["b", "dominated"]  # a was never tested at 1024
    assert not verdicts.loc["a", "dominated"]


def test_efficiency_is_accuracy_per_thousand_tokens():
    assert efficiency([0.5], [250]).tolist() == [2.0]
    assert math.isnan(efficiency([1.0], [0])[0])


def test_missing_columns_are_named():
    with pytest.raises(ParameterError) as raised:
        pareto_per_budget(pd.DataFrame({"format": ["a"]}))
    assert "budgeted_tokens" in str(raised.value)
