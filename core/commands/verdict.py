"""The verdict a command prints first: the best lossless, non-oracle choice at each budget, and a one-line Pareto
summary; the per-group detail is printed only with --verbose.

Ranking at a budget: higher traversal accuracy, then higher evidence survival, then fewer budgeted tokens, then a policy
whose cuts always parse (record, sections, raw, as the advisor ranks them), then the names (so ties always resolve
the same way). Oracle orderings and lossy formats are baselines, never the verdict.
"""

from __future__ import annotations

import sys

import pandas as pd

from core.commands.text_table import text_table

CHOICE = ["format", "ordering", "layout", "policy"]
POLICY_RANK = {"record": 0, "sections": 1, "raw": 2}


def candidates(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows a verdict may pick from: lossless formats under orderings that do not read the answer."""
    chosen = frame
    if "lossless" in chosen.columns:
        chosen = chosen[chosen["lossless"].astype(bool)]
    if "oracle" in chosen.columns:
        chosen = chosen[~chosen["oracle"].astype(bool)]
    return chosen


def best_per_budget(frame: pd.DataFrame, tokens_column: str = "budgeted_tokens") -> pd.DataFrame:
    """One row per budget: the best choice by mean traversal accuracy, mean evidence survival, then fewer tokens.

    `frame` is one row per cut (a sweep, with several queries averaged) or an aggregate with the means already
    taken (a suite's, whose tokens column is `mean_tokens`); extra columns of the best row are kept."""
    chosen = candidates(frame)
    if chosen.empty:
        return chosen
    means = chosen.groupby([*CHOICE, "budget"], sort=False, as_index=False).agg(
        traversal_accuracy=("traversal_accuracy", "mean"), evidence_survival=("evidence_survival", "mean"),
        tokens=(tokens_column, "mean"))
    extra = [column for column in ("accuracy_low", "accuracy_high", "questions") if column in chosen.columns]
    if extra:
        means = means.merge(chosen[[*CHOICE, "budget", *extra]], on=[*CHOICE, "budget"], how="left")
    means["policy_rank"] = means["policy"].map(POLICY_RANK).fillna(len(POLICY_RANK))
    ranked = means.sort_values(["budget", "traversal_accuracy", "evidence_survival", "tokens", "policy_rank", *CHOICE],
                               ascending=[True, False, False, True, True, True, True, True, True], kind="stable")
    return ranked.groupby("budget", sort=True).head(1).drop(columns="policy_rank").reset_index(drop=True)


def verdict_table(best: pd.DataFrame) -> str:
    """The best choice per budget as a text table; with a suite's Wilson interval when the rows carry one."""
    if best.empty:
        return "no lossless format under a non-oracle ordering was swept, so there is no verdict"
    interval = "accuracy_low" in best.columns
    columns = {
        "budget": [f"{int(budget):,}" for budget in best["budget"]],
        "best (format / ordering / layout / policy)": [" / ".join(str(row[key]) for key in CHOICE)
                                                        for _, row in best.iterrows()],
        "accuracy": [f"{value:.2f}" for value in best["traversal_accuracy"]],
    }
    if interval:
        columns["95% interval"] = [f"[{low:.2f}, {high:.2f}]" for low, high in zip(best["accuracy_low"],
                                                                                  best["accuracy_high"])]
    columns["evidence"] = [f"{value:.0%}" for value in best["evidence_survival"]]
    columns["tokens"] = [f"{value:,.0f}" for value in best["tokens"]]
    return text_table(columns, left=("best (format / ordering / layout / policy)",))


def pareto_summary(verdicts: pd.DataFrame) -> str:
    """One line for the Pareto rule across budgets over all groups (ordering, layout, policy, tokenizer)."""
    if verdicts.empty:
        return "Pareto across budgets: nothing to compare"
    groups = verdicts.groupby([key for key in ("tokenizer", "seeding", "ordering", "layout", "policy")
                               if key in verdicts.columns], sort=False).ngroups
    by_format = verdicts.groupby("format", sort=False)["dominated"]
    never = [name for name, dominated in by_format if not dominated.any()]
    always = [name for name, dominated in by_format if dominated.all()]
    return (f"Pareto across budgets, over {groups} group(s) of ordering, layout and policy: never dominated "
            f"{', '.join(never) or 'none'}; dominated in every group {', '.join(always) or 'none'} "
            "(--verbose lists each group)")


def stage(message: str, quiet: bool) -> None:
    """A line on stderr naming the step under way after the bar, so a long aggregation or write is not silence."""
    if not quiet:
        print(f"{message}…", file=sys.stderr, flush=True)
