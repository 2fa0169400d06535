"""Summaries of stored results: exact match with Wilson intervals, F1 with a bootstrap over queries, tokens, cost, latency.

One row per (model, format, ordering, layout, policy, budget). Failed requests (no answer from the
endpoint) are counted but left out of the answer scores: they measure the endpoint, not the
model's reading; a later run retries them. Every answer of every trial counts for exact match, and
the interval says how many answers it rests on; F1 intervals resample queries, since trials of one
query are not independent. Cost is computed here, from the price table given, on the usage the
provider reported; answers without reported usage are counted, not estimated.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable

import pandas as pd

from core.analysis.pareto import pareto_front
from core.evaluate.statistics import bootstrap_over_queries, wilson_interval
from core.prompt.pricing import PriceTable

GROUP = ("model", "format", "ordering", "layout", "policy", "budget_tokens")


def _percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _field_columns(answered: list[dict], confidence: float) -> dict:
    by_field: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in answered:
        for name, scores in json.loads(row["field_scores"] or "{}").items():
            by_field[name][row["query_key"]].append(scores["f1"])
    columns = {}
    for name in sorted(by_field):
        interval = bootstrap_over_queries(by_field[name], confidence)
        columns.update({f"{name}_f1": interval.estimate, f"{name}_f1_low": interval.low,
                        f"{name}_f1_high": interval.high})
    return columns


def summarise_group(rows: list[dict], prices: PriceTable, confidence: float = 0.95) -> dict:
    answered = [row for row in rows if not row["failure_reason"]]
    exact = sum(1 for row in answered if row["exact_match"])
    interval = wilson_interval(exact, len(answered), confidence)
    costs = [prices.cost(row["prompt_tokens_reported"], row["completion_tokens_reported"]) for row in answered]
    latencies = [row["latency_ms"] for row in answered]
    traversal = [row["traversal_accuracy"] for row in rows if row["traversal_accuracy"] is not None]
    return {
        "requests": len(rows),
        "answered": len(answered),
        "failed": len(rows) - len(answered),
        "queries": len({row["query_key"] for row in answered}),
        "trials": max((row["trial"] for row in rows), default=-1) + 1,
        "parse_success": _mean([float(row["parse_success"]) for row in answered]),
        "exact_match": interval.estimate if answered else None,
        "exact_match_low": interval.low,
        "exact_match_high": interval.high,
        **_field_columns(answered, confidence),
        "traversal_accuracy": _mean(traversal),
        "context_tokens": _mean([row["context_tokens"] for row in rows]),
        "grammar_tokens": _mean([row["grammar_tokens"] for row in rows]),
        "measured_tokens": _mean([row["context_tokens"] + row["grammar_tokens"] for row in rows]),
        "frame_tokens": _mean([row["frame_tokens"] for row in rows]),
        "prompt_tokens_counted": _mean([row["prompt_tokens_counted"] for row in rows]),
        "prompt_tokens_reported": sum(row["prompt_tokens_reported"] or 0 for row in answered),
        "completion_tokens_reported": sum(row["completion_tokens_reported"] or 0 for row in answered),
        "usage_missing": sum(1 for cost in costs if cost is None),
        "cost": sum(cost for cost in costs if cost is not None),
        "latency_ms_median": statistics.median(latencies) if latencies else None,
        "latency_ms_p95": _percentile(latencies, 0.95),
    }


def _sort_key(key: tuple) -> tuple:
    return tuple((value is None, value if isinstance(value, (int, float)) else str(value)) for value in key)


def summarise(rows: Iterable[dict], prices: PriceTable, confidence: float = 0.95) -> pd.DataFrame:
    """One row per (model, format, ordering, layout, policy, budget), sorted by those columns."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[tuple(row[name] for name in GROUP)].append(row)
    records = [{**dict(zip(GROUP, key)), **summarise_group(members, prices, confidence)}
               for key, members in sorted(groups.items(), key=lambda item: _sort_key(item[0]))]
    return pd.DataFrame.from_records(records, columns=None if records else list(GROUP))


def pareto_by_budget(table: pd.DataFrame) -> pd.DataFrame:
    """Per (model, ordering, layout, policy, budget): each format's (measured tokens, exact match), front marked."""
    answered = table[table["answered"] > 0] if "answered" in table else table
    groups = [name for name in GROUP if name != "format"]
    if answered.empty:
        return answered.assign(pareto_optimal=[], dominated_by=[], efficiency=[])
    frames = [pareto_front(group, tokens="measured_tokens", accuracy="exact_match")
              for _, group in answered.groupby(groups, sort=False, dropna=False)]
    return pd.concat(frames, ignore_index=True)


def per_format(rows: Iterable[dict], prices: PriceTable) -> pd.DataFrame:
    """Per (model, format): requests, failures, total cost and latency (median, 95th percentile)."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["model"], row["format"])].append(row)
    records = []
    for (model, format_name), members in sorted(groups.items()):
        answered = [row for row in members if not row["failure_reason"]]
        costs = [prices.cost(row["prompt_tokens_reported"], row["completion_tokens_reported"]) for row in answered]
        latencies = [row["latency_ms"] for row in answered]
        records.append({"model": model, "format": format_name, "requests": len(members),
                        "failed": len(members) - len(answered),
                        "cost": sum(cost for cost in costs if cost is not None),
                        "usage_missing": sum(1 for cost in costs if cost is None),
                        "latency_ms_median": statistics.median(latencies) if latencies else None,
                        "latency_ms_p95": _percentile(latencies, 0.95)})
    return pd.DataFrame.from_records(records, columns=["model", "format", "requests", "failed", "cost",
                                                       "usage_missing", "latency_ms_median", "latency_ms_p95"])
