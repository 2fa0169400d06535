"""Summaries of result rows: failures apart, exact match with Wilson intervals, F1 by query, cost, the Pareto front."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from core.analysis.answer_summary import pareto_by_budget, per_format, summarise
from core.evaluate.statistics import wilson_interval
from core.prompt.pricing import PriceTable


def row(format_name="csv", budget=512, query="q1", trial=0, exact=1, f1=1.0, failure="", tokens=(100, 10),
        latency=50.0, context=400, grammar=60) -> dict:
    return {"model": "m", "format": format_name, "ordering": "canonical", "layout": "nodes_then_edges",
            "policy": "record", "budget_tokens": budget, "query_key": query, "trial": trial,
            "failure_reason": failure, "exact_match": None if failure else exact,
            "parse_success": None if failure else 1,
            "field_scores": None if failure else json.dumps({"affected_services": {"f1": f1}}),
            "prompt_tokens_reported": None if failure else tokens[0],
            "completion_tokens_reported": None if failure else tokens[1], "latency_ms": latency,
            "traversal_accuracy": 1.0, "context_tokens": context, "grammar_tokens": grammar, "frame_tokens": 130,
            "prompt_tokens_counted": 600}


def test_failures_are_counted_apart_from_the_scores():
    rows = [row(exact=1), row(trial=1, exact=0, f1=0.5), row(trial=2, failure="HTTP 500: boom")]
    summary = summarise(rows, PriceTable()).iloc[0]
    assert (summary["requests"], summary["answered"], summary["failed"]) == (3, 2, 1)
    assert summary["exact_match"] == 0.5 and summary["trials"] == 3
    interval = wilson_interval(1, 2)
    assert (summary["exact_match_low"], summary["exact_match_high"]) == (interval.low, interval.high)
    assert summary["affected_services_f1"] == 0.75


def test_cost_uses_reported_usage_only_and_counts_what_is_missing():
    rows = [row(tokens=(1_000_000, 100_000)), {**row(trial=1), "prompt_tokens_reported": None}]
    summary = summarise(rows, PriceTable(2.0, 8.0)).iloc[0]
    assert summary["cost"] == pytest.approx(2.0 + 0.8) and summary["usage_missing"] == 1


def test_rows_group_by_budget_in_numeric_order():
    table = summarise([row(budget=4096), row(budget=512), row(budget=1024)], PriceTable())
    assert list(table["budget_tokens"]) == [512, 1024, 4096]


def test_the_pareto_front_uses_measured_tokens_and_exact_match():
    rows = [row("csv", context=300, exact=1), row("jsonl", context=500, exact=1), row("typed_edges", context=200,
                                                                                       exact=0)]
    front = pareto_by_budget(summarise(rows, PriceTable())).set_index("format")
    assert front.loc["csv", "pareto_optimal"] and front.loc["typed_edges", "pareto_optimal"]
    assert not front.loc["jsonl", "pareto_optimal"] and front.loc["jsonl", "dominated_by"] == "csv"


def test_per_format_cost_and_latency():
    rows = [row("csv", latency=10.0), row("csv", trial=1, latency=30.0), row("jsonl", failure="timeout after 1 s")]
    table = per_format(rows, PriceTable(1.0, 1.0)).set_index("format")
    assert table.loc["csv", "latency_ms_median"] == 20.0 and table.loc["csv", "cost"] == pytest.approx(2 * 110 / 1e6)
    assert table.loc["jsonl", "failed"] == 1 and pd.isna(table.loc["jsonl", "latency_ms_median"])
