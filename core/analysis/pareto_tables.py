"""The Pareto and Exports pages' tables, from a budget sweep's frame (the rules are core.analysis.pareto's)."""

from __future__ import annotations

import pandas as pd

from core.analysis.answer_front import reach_points
from core.analysis.pareto import dominance_across_budgets, pareto_per_budget

ACCURACIES = {"traversal accuracy": "traversal_accuracy", "evidence survival": "evidence_survival"}


def pareto_points(frame: pd.DataFrame, accuracy: str) -> pd.DataFrame:
    """Per budget, each format's (budgeted tokens, accuracy) with the non-dominated front marked."""
    points = pareto_per_budget(frame, accuracy=ACCURACIES[accuracy])
    lossless = dict(zip(frame["format"], frame["lossless"]))
    return points.assign(lossless=[bool(lossless[name]) for name in points["format"]])


def answer_points(frame: pd.DataFrame, accuracy: str) -> pd.DataFrame:
    """The front over what answers (core.analysis.answer_front): each accuracy a format reaches against the
    smallest swept budget reaching it, the non-dominated points marked."""
    return reach_points(frame, ACCURACIES[accuracy])


def dominated_formats(frame: pd.DataFrame, accuracy: str) -> pd.DataFrame:
    """Formats dominated under the across-budget rule, with the formats that dominate each."""
    table = dominance_across_budgets(frame, accuracy=ACCURACIES[accuracy])
    return table[table["dominated"]].reset_index(drop=True)


def efficiency_table(frame: pd.DataFrame, accuracy: str) -> pd.DataFrame:
    """Per format over the tested budgets: mean tokens and accuracy, accuracy per 1,000 tokens, and
    the CKG-style Reasoning Density Score (mean accuracy / mean tokens), best first."""
    table = dominance_across_budgets(frame, accuracy=ACCURACIES[accuracy])
    lossless = dict(zip(frame["format"], frame["lossless"]))
    table = table.assign(lossless=[bool(lossless[name]) for name in table["format"]],
                         rds=table["mean_accuracy"] / table["mean_tokens"].where(table["mean_tokens"] > 0))
    columns = ["format", "lossless", "mean_tokens", "mean_accuracy", "efficiency", "rds", "dominated", "dominated_by"]
    return table[columns].sort_values("efficiency", ascending=False, na_position="last").reset_index(drop=True)


def best_lossless(table: pd.DataFrame) -> str | None:
    """The lossless format with the highest accuracy per 1,000 tokens in an efficiency table."""
    lossless = table[table["lossless"] & table["efficiency"].notna()]
    return None if lossless.empty else str(lossless.loc[lossless["efficiency"].idxmax(), "format"])
