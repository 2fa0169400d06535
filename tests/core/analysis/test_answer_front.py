"""The front over what answers: accuracy against the smallest budget reaching it, never a format that answers nothing."""

from __future__ import annotations

import pandas as pd

from core.analysis.answer_front import front_lines, reach_points


def sweep_frame(rows: list[tuple[str, int, float, int]]) -> pd.DataFrame:
    """(format, budget, traversal accuracy, budgeted tokens) rows of one ordering, layout and policy."""
    return pd.DataFrame([{"format": name, "lossless": True, "ordering": "canonical", "layout": "nodes_then_edges",
                          "policy": "record", "budget": budget, "traversal_accuracy": accuracy,
                          "budgeted_tokens": tokens} for name, budget, accuracy, tokens in rows])


FRAME = sweep_frame([
    ("keeps_least", 500, 0.0, 455), ("keeps_least", 1000, 0.0, 954), ("keeps_least", 2000, 0.0, 1960),
    ("cheap", 500, 0.0, 499), ("cheap", 1000, 1.0, 998), ("cheap", 2000, 1.0, 1100),
    ("partial", 500, 0.5, 497), ("partial", 1000, 0.5, 990), ("partial", 2000, 1.0, 1990),
    ("late", 500, 0.0, 490), ("late", 1000, 0.0, 995), ("late", 2000, 1.0, 1500)])


def test_a_format_that_answers_nothing_is_never_on_the_front():
    points = reach_points(FRAME)
    assert "keeps_least" not in set(points["format"])  # at one fixed budget it used the fewest tokens


def test_each_accuracy_is_placed_at_the_smallest_budget_reaching_it():
    points = reach_points(FRAME).set_index(["format", "accuracy"])
    assert points.loc[("cheap", 1.0), "reach_budget"] == 1000 and points.loc[("cheap", 1.0), "tokens"] == 998
    assert points.loc[("partial", 0.5), "reach_budget"] == 500 and points.loc[("partial", 1.0), "reach_budget"] == 2000


def test_the_front_is_what_no_other_reaches_more_cheaply():
    points = reach_points(FRAME)
    front = points[points["pareto_optimal"]]
    assert set(zip(front["format"], front["accuracy"])) == {("partial", 0.5), ("cheap", 1.0)}
    late = points[points["format"] == "late"].iloc[0]
    assert late["dominated_by"] == "cheap"  # partial reaches 100% from 2,000 too: equal points do not dominate
    assert front_lines(points) == ["  canonical/nodes_then_edges/record: 50% from 500 tokens: partial; "
                                   "100% from 1,000 tokens: cheap"]


def test_nothing_answering_says_so():
    points = reach_points(sweep_frame([("a", 500, 0.0, 400)]))
    assert points.empty and front_lines(points) == ["  nothing answers at any swept budget"]
