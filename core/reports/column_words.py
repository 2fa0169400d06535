"""Table columns and chart axes in words: `latency_ms_median` reads "median latency (ms)", never the raw name."""

from __future__ import annotations

WORDS = {
    "budgeted_tokens": "tokens used", "records_total": "records in all", "parse_ok": "parses",
    "coverage_tokens": "D_k(S) tokens", "full_tokens": "complete text tokens", "first_dropped_keys": "first units dropped",
    "pareto_optimal": "on the front", "efficiency": "accuracy per 1,000 tokens", "rds": "RDS",
    "mean_tokens": "mean tokens", "mean_accuracy": "mean accuracy", "budget_90": "smallest budget for 90%",
    "budget_100": "smallest budget for 100%", "latency_ms": "latency (ms)", "latency_ms_median": "median latency (ms)",
    "evidence_gap": "evidence survival below the oracle", "accuracy_gap": "traversal accuracy below the oracle",
    "oracle_evidence_survival": "oracle's evidence survival", "question_id": "question", "ground_truth": "ground truth",
    "ground_truth_detail": "ground truth detail", "exact_match": "exact match", "exact_match_low": "exact match (low)",
    "exact_match_high": "exact match (high)", "dominated_by": "dominated by",
}


def words(column: object) -> str:
    """A column's title in words: a known name's wording, a title already in words as it is ("D_k(S) tokens"),
    else the name with its underscores as spaces."""
    name = str(column)
    if name in WORDS:
        return WORDS[name]
    return name if " " in name else name.replace("_", " ")
