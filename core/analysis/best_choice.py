"""The best choice at each budget of a sweep or a suite, by the advisor's one rule (core.analysis.ranking).

At each budget every candidate (a lossless format under an ordering that is not a baseline, with a layout and a
policy) is ranked by its accuracy over the questions, then by the smallest budget that reaches that accuracy, then
by its tokens; candidates whose accuracy lies inside the most accurate one's 95% interval could be as good as it,
so among those the cheapest is picked (`ranking.choose`). The budget that reaches an accuracy is the exact one
from the cuts' own prefix counts where the sweep measured it (the record policy's `answering_budget`, over the
questions with `answering_budget.reach_of`), else the smallest swept budget reaching it (a grid figure). Where
nothing answers there is no best: the row names the choice that kept the most evidence.
"""

from __future__ import annotations

import math

import pandas as pd

from core.analysis.answering_budget import reach_of
from core.analysis.ranking import Standing, choose, reach_budget
from core.budget import POLICIES
from core.retrieval import ORDERINGS

CHOICE = ["format", "ordering", "layout", "policy"]


def candidates(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows a verdict may pick from: lossless formats under orderings that are not baselines."""
    chosen = frame
    if "lossless" in chosen.columns:
        chosen = chosen[chosen["lossless"].astype(bool)]
    baseline = {name: ORDERINGS.get(name).baseline for name in chosen["ordering"].unique() if name in ORDERINGS}
    return chosen[~chosen["ordering"].map(baseline).fillna(False).astype(bool)]


def choice_table(frame: pd.DataFrame, tokens_column: str = "budgeted_tokens") -> pd.DataFrame:
    """Per candidate and budget: mean accuracy, evidence and tokens, the questions, those answered, and the exact
    budget reaching that accuracy (None where the sweep has no exact figure for it)."""
    chosen = candidates(frame)
    columns = dict(traversal_accuracy=("traversal_accuracy", "mean"), evidence_survival=("evidence_survival", "mean"),
                   tokens=(tokens_column, "mean"), questions=("traversal_accuracy", "size"))
    table = chosen.groupby([*CHOICE, "budget"], sort=False, as_index=False).agg(**columns)
    if "questions" in chosen.columns:  # an aggregate already (a suite): its own question counts
        table = table.drop(columns="questions").merge(chosen[[*CHOICE, "budget", "questions"]],
                                                      on=[*CHOICE, "budget"], how="left")
    table["correct"] = (table["traversal_accuracy"] * table["questions"]).round().astype(int)
    if "answering_budget" in chosen.columns:
        answering = chosen.groupby([*CHOICE, "budget"], sort=False)["answering_budget"].agg(
            lambda values: tuple(None if pd.isna(value) else int(value) for value in values))
        table = table.merge(answering.rename("answering").reset_index(), on=[*CHOICE, "budget"], how="left")
    else:
        table["answering"] = None
    table["reach_budget"] = [_reach(table, row) for row in table.itertuples()]
    return table


def _reach(table: pd.DataFrame, row) -> float:
    """The budget that reaches the row's accuracy: exact (the record policy's answering budgets), else the grid's;
    infinite where the accuracy is 0 (nothing answers, so no budget "reaches" it)."""
    if row.traversal_accuracy <= 0:
        return math.inf
    answering = row.answering if isinstance(row.answering, tuple) else ()
    if row.policy == "record" and answering:
        exact = reach_of(answering, float(row.traversal_accuracy))
        if exact is not None:
            return float(exact)
    same = table[(table["format"] == row.format) & (table["ordering"] == row.ordering)
                 & (table["layout"] == row.layout) & (table["policy"] == row.policy) & (table["budget"] <= row.budget)]
    return float(reach_budget(zip(same["budget"], same["traversal_accuracy"]), float(row.traversal_accuracy)))


def _label(row) -> str:
    return f"{row.format} ({row.ordering}, {row.layout}, {row.policy})"


def best_per_budget(frame: pd.DataFrame, tokens_column: str = "budgeted_tokens") -> pd.DataFrame:
    """One row per budget: the best candidate by the advisor's rule, with `reach_budget` (exact where the sweep
    measured it) and `tied_with`, the other formats as good there within noise (an accuracy inside the most
    accurate candidate's 95% interval).

    `frame` is one row per cut (a sweep, several queries averaged) or an aggregate with the means already taken (a
    suite's, whose tokens column is `mean_tokens`); its interval columns, where present, are kept."""
    table = choice_table(frame, tokens_column)
    if table.empty:
        return table
    extra = [column for column in ("accuracy_low", "accuracy_high") if column in frame.columns]
    best_rows = []
    for _, at in table.groupby("budget", sort=True):
        rows = {_label(row): row for row in at.itertuples(index=False)}
        if max(row.traversal_accuracy for row in rows.values()) <= 0:  # nothing answers: the most evidence, named so
            ordered = sorted(rows.values(), key=lambda row: (-row.evidence_survival, row.tokens, _label(row)))
            best_rows.append(dict(ordered[0]._asdict(), tied_with=""))
            continue
        standings = [Standing(label, row.format, int(row.correct), int(row.questions),
                              row.reach_budget if math.isfinite(row.reach_budget) else 2 ** 62, float(row.tokens),
                              preference=POLICIES.get(row.policy).preference) for label, row in rows.items()]
        verdict = choose(standings)
        best = rows[verdict.pick.name]
        low, high = verdict.most_accurate.interval  # as good within noise: an accuracy inside the top one's interval
        tied = [standing.family for standing in verdict.order
                if standing.family != best.format and low <= standing.accuracy <= high]
        best_rows.append(dict(best._asdict(), tied_with=", ".join(dict.fromkeys(tied))))
    best = pd.DataFrame(best_rows)
    if extra:
        best = best.merge(frame[[*CHOICE, "budget", *extra]].drop_duplicates([*CHOICE, "budget"]),
                          on=[*CHOICE, "budget"], how="left")
    return best.drop(columns=["answering"]).reset_index(drop=True)
