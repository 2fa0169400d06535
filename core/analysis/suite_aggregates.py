"""A suite's aggregates: per (seeding, format, ordering, layout, policy, budget) over the questions.

- traversal accuracy = share of questions answered exactly, with its Wilson 95% interval
  (`accuracy_low`, `accuracy_high`); `evidence_complete` the share whose evidence all survived,
  with its interval too; mean evidence survival and mean candidate recall within k (questions
  without seeds have no candidate recall and are left out of that mean, `recall_questions` says
  how many count);
- mean budgeted tokens, accuracy per 1,000 tokens, and RDS (accuracy / mean tokens, after the CKG
  benchmark's Reasoning Density Score);
- the same broken down by query type and by hop depth;
- per (seeding, format, ordering, layout, policy): the smallest tested budget answering 90% and 100%
  of the questions (missing when none does);
- the across-budget Pareto rule (core.analysis.pareto) on the aggregate points.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from core.analysis.pareto import dominance_across_budgets, efficiency
from core.evaluate.statistics import wilson_interval

# tokenizer first: a suite over several tokenizers compares formats within each, never across them.
CUT_GROUPS = ["tokenizer", "seeding", "format", "lossless", "ordering", "oracle", "layout", "policy", "budget"]
CURVE_GROUPS = ["tokenizer", "seeding", "format", "lossless", "ordering", "oracle", "layout", "policy"]
BREAKDOWNS = {"query type": "query_type", "hop depth": "hop_depth"}
CONFIDENCE = 0.95


def aggregate(rows: pd.DataFrame, by: Sequence[str] = ()) -> pd.DataFrame:
    """One row per cut group (and `by` column values): the figures above."""
    keys = [*CUT_GROUPS, *by]
    grouped = rows.groupby(keys, sort=False, dropna=False)
    table = grouped.agg(
        questions=("traversal_accuracy", "size"), answered=("traversal_accuracy", "sum"),
        evidence_complete_count=("evidence_complete", "sum"), evidence_survival=("evidence_survival", "mean"),
        candidate_recall=("candidate_recall", "mean"), recall_questions=("candidate_recall", "count"),
        mean_tokens=("budgeted_tokens", "mean")).reset_index()
    table["answered"] = table["answered"].round().astype(int)
    table["evidence_complete_count"] = table["evidence_complete_count"].astype(int)
    accuracy = [wilson_interval(a, n, CONFIDENCE) for a, n in zip(table["answered"], table["questions"])]
    complete = [wilson_interval(c, n, CONFIDENCE) for c, n in zip(table["evidence_complete_count"], table["questions"])]
    table["traversal_accuracy"] = [interval.estimate for interval in accuracy]
    table["accuracy_low"] = [interval.low for interval in accuracy]
    table["accuracy_high"] = [interval.high for interval in accuracy]
    table["evidence_complete"] = [interval.estimate for interval in complete]
    table["complete_low"] = [interval.low for interval in complete]
    table["complete_high"] = [interval.high for interval in complete]
    table["accuracy_per_1000_tokens"] = efficiency(table["traversal_accuracy"], table["mean_tokens"])
    table["rds"] = table["traversal_accuracy"] / table["mean_tokens"].where(table["mean_tokens"] > 0)
    return table[[*keys, "questions", "answered", "traversal_accuracy", "accuracy_low", "accuracy_high",
                  "evidence_survival", "evidence_complete", "complete_low", "complete_high", "candidate_recall",
                  "recall_questions", "mean_tokens", "accuracy_per_1000_tokens", "rds"]]


def breakdown(rows: pd.DataFrame, by: str) -> pd.DataFrame:
    """The aggregate per query type (`query_type`) or hop depth (`hop_depth`)."""
    return aggregate(rows, (by,)).sort_values([*CUT_GROUPS[:-1], by, "budget"], kind="stable",
                                              ignore_index=True)


def smallest_budgets(table: pd.DataFrame, shares: Sequence[float] = (0.9, 1.0)) -> pd.DataFrame:
    """Per curve: the smallest tested budget whose accuracy reaches each share of the questions."""
    rows = []
    for key, curve in table.groupby(CURVE_GROUPS, sort=False, dropna=False):
        row = dict(zip(CURVE_GROUPS, key))
        for share in shares:
            # answered >= share * questions, in whole questions, so 90% of 164 means 148 answered
            reached = curve[curve["answered"] >= np.ceil(share * curve["questions"] - 1e-9)]
            row[f"budget_{round(share * 100)}"] = int(reached["budget"].min()) if len(reached) else None
        rows.append(row)
    frame = pd.DataFrame(rows)
    for share in shares:
        frame[f"budget_{round(share * 100)}"] = frame[f"budget_{round(share * 100)}"].astype("Int64")
    return frame


def pareto_across_budgets(rows: pd.DataFrame) -> pd.DataFrame:
    """core.analysis.pareto's across-budget rule on the aggregate (mean over questions) of each seeding."""
    return dominance_across_budgets(rows, group_by=("tokenizer", "seeding", "ordering", "layout", "policy"))


def failing_questions(rows: pd.DataFrame, questions: pd.DataFrame, *, seeding: str, format_name: str,
                      ordering: str, layout: str, policy: str, budget: int) -> pd.DataFrame:
    """The questions this cut does not answer, with what survived of their evidence."""
    chosen = rows[(rows["seeding"] == seeding) & (rows["format"] == format_name) & (rows["ordering"] == ordering)
                  & (rows["layout"] == layout) & (rows["policy"] == policy) & (rows["budget"] == budget)
                  & (rows["traversal_accuracy"] < 1.0)]
    shown = chosen[["question_id", "evidence_survival", "candidate_recall", "budgeted_tokens", "parse_ok"]]
    return questions.merge(shown, on="question_id")[
        ["question_id", "question", "query_type", "hop_depth", "template", f"{seeding}_seeds", "evidence_survival",
         "candidate_recall", "budgeted_tokens", "parse_ok"]]


def seeding_comparison(table: pd.DataFrame) -> pd.DataFrame:
    """Text-seeded beside annotation-seeded accuracy and recall, per cut group (side by side)."""
    keys = [column for column in CUT_GROUPS if column != "seeding"]
    wide = table.pivot_table(index=keys, columns="seeding", values=["traversal_accuracy", "candidate_recall"],
                             aggfunc="first", dropna=False)
    wide.columns = [f"{value}_{seeding}" for value, seeding in wide.columns]
    return wide.reset_index()
