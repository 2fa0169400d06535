"""The verdict a command prints first: the best lossless choice at each budget, and a one-line Pareto summary;
the per-group detail is printed only with --verbose.

Ranking at a budget: higher traversal accuracy, then higher evidence survival, then fewer budgeted tokens, then a policy
whose cuts always parse (record, sections, raw, as the advisor ranks them), then the names (so ties always resolve
the same way). Baseline orderings (random or reading the answer, `Ordering.baseline`) and lossy formats are never the
verdict. Other formats that do as well are named beside it: a tie is called a tie. With a Wilson interval (a suite),
"as well" is the advisor's rule (core.analysis.ranking): an accuracy inside the best one's interval.
"""

from __future__ import annotations

import sys

import pandas as pd

from core.commands.text_table import text_table
from core.retrieval import ORDERINGS

CHOICE = ["format", "ordering", "layout", "policy"]
POLICY_RANK = {"record": 0, "sections": 1, "raw": 2}


def candidates(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows a verdict may pick from: lossless formats under orderings that are not baselines."""
    chosen = frame
    if "lossless" in chosen.columns:
        chosen = chosen[chosen["lossless"].astype(bool)]
    baseline = {name: ORDERINGS.get(name).baseline for name in chosen["ordering"].unique() if name in ORDERINGS}
    return chosen[~chosen["ordering"].map(baseline).fillna(False).astype(bool)]


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
    best = ranked.groupby("budget", sort=True).head(1).drop(columns="policy_rank").reset_index(drop=True)
    best["tied_with"] = [tied_formats(ranked[ranked["budget"] == row["budget"]], row) for _, row in best.iterrows()]
    return best


def tied_formats(at_budget: pd.DataFrame, best: pd.Series) -> str:
    """The other formats whose best choice at this budget does as well as `best`: the same accuracy and evidence
    survival, or (with an interval) an accuracy inside the best one's 95% interval."""
    others = at_budget[at_budget["format"] != best["format"]].groupby("format", sort=False).head(1)
    if "accuracy_low" in best.index:
        tied = others[others["traversal_accuracy"].between(best["accuracy_low"], best["accuracy_high"])]
    else:
        tied = others[(others["traversal_accuracy"] == best["traversal_accuracy"])
                      & (others["evidence_survival"] == best["evidence_survival"])]
    return ", ".join(tied["format"])


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
