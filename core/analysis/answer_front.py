"""The Pareto front over what answers: per format, each accuracy it reaches against the smallest budget reaching it.

At one fixed budget every format fills about the budget, so "tokens used against accuracy" rewards the formats
that keep the least (one at accuracy 0 was on that front). Here a point is (the smallest budget from which a
format reaches an accuracy, that accuracy), for every accuracy above 0 it reaches: exact under the record policy
(core.analysis.answering_budget, over the questions), else the smallest swept budget (`reach_budget`, the
advisor's own rule, core.analysis.ranking); a point is on the front when no other reaches at least its accuracy from no
larger a budget, strictly better in one. Accuracy is the mean over the sweep's queries at each budget.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from core.analysis.answering_budget import reach_of
from core.analysis.pareto import dominates
from core.analysis.ranking import reach_budget

GROUPS = ("ordering", "layout", "policy")
FIGURES = ["accuracy", "reach_budget", "tokens", "pareto_optimal", "dominated_by"]


def reach_points(frame: pd.DataFrame, accuracy: str = "traversal_accuracy",
                 groups: Sequence[str] = GROUPS) -> pd.DataFrame:
    """Per group and format, one row per accuracy above 0 it reaches: the smallest budget reaching it and the
    tokens it uses there; the front over what answers marked within each group."""
    keys = [*groups, "format"]
    columns = ["format", "lossless", *groups, *FIGURES]
    means = frame.groupby([*keys, "budget"], sort=False).agg(
        accuracy=(accuracy, "mean"), tokens=("budgeted_tokens", "mean"), lossless=("lossless", "first")).reset_index()
    rows = []
    answering = _answering(frame, keys)
    for key, curve in means.groupby(keys, sort=False):
        ladder = list(zip(curve["budget"].astype(int), curve["accuracy"].astype(float)))
        tokens = dict(zip(curve["budget"].astype(int), curve["tokens"].astype(float)))
        exact = answering.get(key)
        for level in sorted({value for _, value in ladder if value > 0}):
            budget = reach_budget(ladder, level)
            spent = tokens[budget]
            found = reach_of(exact, level) if exact else None
            if found is not None:  # the exact budget from which it answers, as every page and command states it
                budget, spent = found, float(found)
            rows.append({**dict(zip(keys, key)), "lossless": bool(curve["lossless"].iloc[0]), "accuracy": level,
                         "reach_budget": budget, "tokens": spent})
    points = pd.DataFrame(rows, columns=[*keys, "lossless", "accuracy", "reach_budget", "tokens"])
    if points.empty:
        return points.assign(pareto_optimal=pd.Series(dtype=bool), dominated_by=pd.Series(dtype=str))[columns]
    marked = [_front(group) for _, group in points.groupby(list(groups), sort=False)]
    return pd.concat(marked, ignore_index=True)[columns].sort_values(
        [*groups, "reach_budget", "accuracy", "format"], ascending=[True] * len(groups) + [True, False, True],
        ignore_index=True)


def _answering(frame: pd.DataFrame, keys: list[str]) -> dict[tuple, tuple[int | None, ...]]:
    """Per record-policy curve, each question's exact answering budget (core.analysis.answering_budget)."""
    if "answering_budget" not in frame.columns or "policy" not in keys:
        return {}
    record = frame[frame["policy"] == "record"].drop_duplicates([*keys, "query"])
    return {key: tuple(None if pd.isna(value) else int(value) for value in part["answering_budget"])
            for key, part in record.groupby(keys, sort=False)}


def _front(points: pd.DataFrame) -> pd.DataFrame:
    """(budget, accuracy) dominance: less budget is better, like fewer tokens (core.analysis.pareto.dominates)."""
    values = list(zip(points["reach_budget"].astype(float), points["accuracy"].astype(float)))
    names = list(points["format"])
    dominated_by = [", ".join(sorted({str(names[index]) for index, other in enumerate(values)
                                      if dominates(other, value)})) for value in values]
    return points.assign(pareto_optimal=[not found for found in dominated_by], dominated_by=dominated_by)


def front_lines(points: pd.DataFrame, groups: Sequence[str] = GROUPS) -> list[str]:
    """The front in words, per group, for the CLI's summary: "100% from 1,200 tokens: local_ids"."""
    lines = []
    for key, group in points[points["pareto_optimal"]].groupby(list(groups), sort=False):
        steps = [f"{round(100 * accuracy):d}% from {budget:,} tokens: {', '.join(sorted(part['format']))}"
                 for (budget, accuracy), part in group.groupby(["reach_budget", "accuracy"], sort=True)]
        lines.append(f"  {'/'.join(map(str, key))}: " + "; ".join(steps))
    return lines or ["  nothing answers at any swept budget"]
