"""Pareto comparisons of formats: tokens against accuracy, per budget and across budgets.

A point (tokens, accuracy) dominates another when it uses no more tokens and is at least as
accurate, and is strictly better in one of the two. Equal points do not dominate each other.

Across budgets (the seed document's rule): format A is dominated when another format B, at every
budget both were tested at, uses no more tokens and is at least as accurate, and is strictly
better (fewer tokens or higher accuracy) at one of them at least. B is named as the dominating
format. Efficiency is accuracy per 1,000 tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from core.errors import ParameterError

PER_BUDGET_GROUPS = ("ordering", "layout", "policy", "budget")
ACROSS_BUDGET_GROUPS = ("ordering", "layout", "policy")


def dominates(first: tuple[float, float], second: tuple[float, float]) -> bool:
    """True when (tokens, accuracy) `first` dominates `second`."""
    (first_tokens, first_accuracy), (second_tokens, second_accuracy) = first, second
    no_worse = first_tokens <= second_tokens and first_accuracy >= second_accuracy
    return no_worse and (first_tokens < second_tokens or first_accuracy > second_accuracy)


def efficiency(accuracy, tokens):
    """Accuracy per 1,000 tokens (NaN for zero tokens)."""
    tokens = np.asarray(tokens, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(tokens > 0, np.asarray(accuracy, dtype=float) * 1000.0 / tokens, np.nan)


def pareto_front(points: pd.DataFrame, *, tokens: str = "tokens", accuracy: str = "accuracy",
                 name: str = "format") -> pd.DataFrame:
    """The points with `pareto_optimal` and `dominated_by` (the names of the points that dominate it)."""
    _require(points, [tokens, accuracy, name])
    values = list(zip(points[tokens].astype(float), points[accuracy].astype(float)))
    names = list(points[name])
    dominated_by = [", ".join(sorted(str(names[j]) for j, other in enumerate(values) if dominates(other, value)))
                    for value in values]
    marked = points.copy()
    marked["pareto_optimal"] = [not found for found in dominated_by]
    marked["dominated_by"] = dominated_by
    marked["efficiency"] = efficiency(marked[accuracy], marked[tokens])
    return marked


def format_points(results: pd.DataFrame, group_by: Sequence[str], *, tokens: str = "budgeted_tokens",
                  accuracy: str = "traversal_accuracy") -> pd.DataFrame:
    """Mean tokens and accuracy per group and format (over queries), one point per format."""
    _require(results, [*group_by, "format", tokens, accuracy])
    keys = [*group_by, "format"]
    points = results.groupby(keys, sort=False, dropna=False).agg(
        tokens=(tokens, "mean"), accuracy=(accuracy, "mean"), rows=(accuracy, "size")).reset_index()
    return points


def pareto_per_budget(results: pd.DataFrame, *, group_by: Sequence[str] = PER_BUDGET_GROUPS,
                      tokens: str = "budgeted_tokens", accuracy: str = "traversal_accuracy") -> pd.DataFrame:
    """Per group (by default ordering, layout, policy and budget): each format's point, front marked."""
    points = format_points(results, group_by, tokens=tokens, accuracy=accuracy)
    if points.empty:
        return points.assign(pareto_optimal=[], dominated_by=[], efficiency=[])
    frames = [pareto_front(group) for _, group in points.groupby(list(group_by), sort=False, dropna=False)]
    return pd.concat(frames, ignore_index=True)


def dominance_across_budgets(results: pd.DataFrame, *, group_by: Sequence[str] = ACROSS_BUDGET_GROUPS,
                             tokens: str = "budgeted_tokens", accuracy: str = "traversal_accuracy",
                             budget: str = "budget") -> pd.DataFrame:
    """Per group and format: dominated across every tested budget, and by which formats."""
    points = format_points(results, [*group_by, budget], tokens=tokens, accuracy=accuracy)
    rows = []
    for key, group in points.groupby(list(group_by), sort=False, dropna=False):
        curves = {name: dict(zip(part[budget], zip(part["tokens"], part["accuracy"])))
                  for name, part in group.groupby("format", sort=False)}
        for name, curve in curves.items():
            dominating = sorted(other for other, other_curve in curves.items()
                                if other != name and _dominates_curve(other_curve, curve))
            rows.append({**dict(zip(group_by, key if isinstance(key, tuple) else (key,))), "format": name,
                         "budgets": len(curve), "mean_tokens": float(np.mean([v[0] for v in curve.values()])),
                         "mean_accuracy": float(np.mean([v[1] for v in curve.values()])),
                         "dominated": bool(dominating), "dominated_by": ", ".join(dominating)})
    frame = pd.DataFrame(rows, columns=[*group_by, "format", "budgets", "mean_tokens", "mean_accuracy",
                                        "dominated", "dominated_by"])
    frame["efficiency"] = efficiency(frame["mean_accuracy"], frame["mean_tokens"])
    return frame


def _dominates_curve(first: dict, second: dict) -> bool:
    """First dominates second at every budget second was tested at, strictly at one at least."""
    if not second or set(second) - set(first):
        return False
    pairs = [(first[b], second[b]) for b in second]
    no_worse = all(f[0] <= s[0] and f[1] >= s[1] for f, s in pairs)
    return no_worse and any(f[0] < s[0] or f[1] > s[1] for f, s in pairs)


def _require(frame: pd.DataFrame, columns: Sequence[str]) -> None:
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ParameterError(f"the results lack the column(s) {', '.join(missing)}", "Pareto input",
                             "pass a sweep's DataFrame, or name the token and accuracy columns")
