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


OUTCOMES = ("correct", "wrong", "abstained")


def outcome(row: dict) -> str:
    """correct (exact match), abstained (no JSON answer, or every field empty or null) or wrong.

    A reply that names something and is not exact is wrong; on a cut that lacks evidence that is the
    hallucination a user wants to see. An empty answer that is exactly right (gold "none") is correct.
    """
    if row["exact_match"]:
        return "correct"
    if not row["parse_success"] or not row["answer"]:
        return "abstained"
    fields = json.loads(row["answer"])
    return "abstained" if all(value in (None, [], {}, "") for value in fields.values()) else "wrong"


def sufficiency(rows: Iterable[dict]) -> pd.DataFrame:
    """Per (model, format, sufficiency): answers that were correct, wrong or abstained, with shares.

    Sufficiency is the lab's own exact figure: the cut kept every evidence unit of the gold answer.
    """
    counts: dict[tuple, dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    for row in rows:
        if row["failure_reason"] or row["evidence_complete"] is None:
            continue
        key = (row["model"], row["format"], "evidence complete" if row["evidence_complete"] else "evidence cut")
        counts[key][outcome(row)] += 1
    records = []
    for (model, format_name, state), found in sorted(counts.items()):
        total = sum(found.values())
        records.append({"model": model, "format": format_name, "sufficiency": state, "answers": total, **found,
                        **{f"{name}_share": found[name] / total for name in OUTCOMES}})
    return pd.DataFrame.from_records(records, columns=["model", "format", "sufficiency", "answers", *OUTCOMES,
                                                       *(f"{name}_share" for name in OUTCOMES)])


def exact_match_by(rows: Iterable[dict], columns: tuple[str, ...], confidence: float = 0.95) -> pd.DataFrame:
    """Exact match with Wilson intervals per value of `columns` (e.g. format and query type, or hop depth)."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        if not row["failure_reason"]:
            groups[tuple(row[name] for name in columns)].append(row)
    records = []
    for key, members in sorted(groups.items(), key=lambda item: _sort_key(item[0])):
        exact = sum(1 for row in members if row["exact_match"])
        interval = wilson_interval(exact, len(members), confidence)
        records.append({**dict(zip(columns, key)), "answers": len(members), "exact": exact,
                        "exact_match": interval.estimate, "exact_match_low": interval.low,
                        "exact_match_high": interval.high,
                        "evidence_complete": _mean([float(row["evidence_complete"]) for row in members
                                                    if row["evidence_complete"] is not None])})
    return pd.DataFrame.from_records(records, columns=[*columns, "answers", "exact", "exact_match", "exact_match_low",
                                                       "exact_match_high", "evidence_complete"])


def length_bins(rows: Iterable[dict], bins: int = 6) -> list[dict]:
    """Rows with `context_length`: the prompt's counted tokens rounded down to one of `bins` log-spaced edges."""
    rows = [row for row in rows if not row["failure_reason"]]
    if not rows:
        return []
    lengths = [row["prompt_tokens_counted"] for row in rows]
    low, high = max(1, min(lengths)), max(lengths)
    ratio = (high / low) ** (1 / bins) if high > low else 2.0
    edges = [round(low * ratio ** step) for step in range(bins + 1)]
    return [{**row, "context_length": max(edge for edge in edges if edge <= max(row["prompt_tokens_counted"], low))}
            for row in rows]


def context_rot(rows: Iterable[dict], bins: int = 6, confidence: float = 0.95) -> pd.DataFrame:
    """Exact match against the prompt's length (its counted tokens, binned), per model and format, with
    the share of those prompts whose cut held the whole evidence: accuracy falling while evidence stays
    complete is the context-rot curve."""
    return exact_match_by(length_bins(rows, bins), ("model", "format", "context_length"), confidence)


def output_and_latency(rows: Iterable[dict], prices: PriceTable) -> pd.DataFrame:
    """Per (model, format): mean prompt, output and total tokens per answer as the provider reported them,
    cost per answer including output, latency, and the prompt tokens the server took from its cache."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        if not row["failure_reason"]:
            groups[(row["model"], row["format"])].append(row)
    records = []
    for (model, format_name), members in sorted(groups.items()):
        prompt = [row["prompt_tokens_reported"] for row in members if row["prompt_tokens_reported"] is not None]
        output = [row["completion_tokens_reported"] for row in members if row["completion_tokens_reported"] is not None]
        cached = [row["cached_tokens_reported"] for row in members if row["cached_tokens_reported"] is not None]
        costs = [prices.cost(row["prompt_tokens_reported"], row["completion_tokens_reported"]) for row in members]
        latencies = [row["latency_ms"] for row in members]
        known = [cost for cost in costs if cost is not None]
        records.append({"model": model, "format": format_name, "answers": len(members),
                        "prompt_tokens": _mean(prompt), "output_tokens": _mean(output),
                        "total_tokens": _mean([p + o for p, o in zip(prompt, output)]) if len(prompt) == len(output)
                        else None,
                        "cached_share": sum(cached) / sum(prompt) if cached and sum(prompt) else None,
                        "cost_per_answer": _mean(known),
                        "latency_ms_median": statistics.median(latencies), "latency_ms_p95": _percentile(latencies, 0.95)})
    return pd.DataFrame.from_records(records, columns=["model", "format", "answers", "prompt_tokens", "output_tokens",
                                                       "total_tokens", "cached_share", "cost_per_answer",
                                                       "latency_ms_median", "latency_ms_p95"])
