"""The verdict a command prints first: the best lossless choice at each budget, and a one-line Pareto summary;
the per-group detail is printed only with --verbose.

The best choice is the advisor's (core.analysis.best_choice over core.analysis.ranking): accuracy, then the
smallest budget that reaches it ("answers from", exact for the record policy), then tokens. Baseline orderings and
lossy formats are never the verdict; other formats that do as well are named beside it: a tie is called a tie.
"""

from __future__ import annotations

import math
import sys

import pandas as pd

from core.analysis.best_choice import best_per_budget
from core.commands.text_table import text_table

__all__ = ["best_per_budget", "pareto_summary", "stage", "verdict_table"]

CHOICE = ["format", "ordering", "layout", "policy"]


def verdict_table(best: pd.DataFrame) -> str:
    """The best choice per budget as a text table; with a suite's Wilson interval when the rows carry one."""
    if best.empty:
        return "no lossless format under an ordering that is not a baseline was swept, so there is no verdict"
    interval = "accuracy_low" in best.columns
    columns = {
        "budget": [f"{int(budget):,}" for budget in best["budget"]],
        # At accuracy 0 nothing answers: the row names the choice that kept the most evidence, not a "best".
        "best (format / ordering / layout / policy)": [
            ("" if row["traversal_accuracy"] > 0 else "nothing answers; most evidence: ")
            + " / ".join(str(row[key]) for key in CHOICE) for _, row in best.iterrows()],
        "accuracy": [f"{value:.2f}" for value in best["traversal_accuracy"]],
    }
    if interval:
        columns["95% interval"] = [f"[{low:.2f}, {high:.2f}]" for low, high in zip(best["accuracy_low"],
                                                                                  best["accuracy_high"])]
    columns["answers from"] = [f"{value:,.0f}" if math.isfinite(value) else "—" for value in best["reach_budget"]]
    columns["evidence"] = [f"{value:.0%}" for value in best["evidence_survival"]]
    columns["tokens"] = [f"{value:,.0f}" for value in best["tokens"]]
    if "tied_with" in best.columns and best["tied_with"].astype(bool).any():
        columns["tied with (as good here)"] = [value if value and accuracy > 0 else "—"
                                               for value, accuracy in zip(best["tied_with"], best["traversal_accuracy"])]
    return text_table(columns, left=("best (format / ordering / layout / policy)", "tied with (as good here)"))


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
