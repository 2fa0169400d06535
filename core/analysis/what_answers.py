"""What answers: when a budget answers nothing, the smallest budget that does, and with what, in one sentence.

Sources, one wording: a sweep's frame (the exact budget from which a format's record cuts answer,
core.analysis.answering_budget, else the smallest swept budget that does, labelled a swept one) and an advice's
picks per budget (swept budgets).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from core.analysis.answering_budget import reach_of
from core.analysis.ranking import reach_budget


@dataclass(frozen=True)
class Answering:
    """`choice` (a format, or a format with its ordering and policy) answers from `budget` tokens."""

    choice: str
    budget: int
    exact: bool = True  # False: a swept budget (the grid's figure; the exact one may be lower), labelled so


def answering_in_sweep(frame: pd.DataFrame, accuracy: str = "traversal_accuracy",
                       full: float = 1.0) -> list[Answering]:
    """Per format of a sweep's frame (one ordering, layout and policy per format, as a page sweeps): the budget
    from which its mean accuracy is `full`: exact under the record policy (each question's answering budget,
    core.analysis.answering_budget), else the smallest swept one, labelled so; cheapest first, formats that never
    do left out."""
    found = []
    for name, curve in frame.groupby("format", sort=False):
        means = curve.groupby("budget")[accuracy].mean()
        ladder = [(int(budget), float(value)) for budget, value in means.items()]
        if not any(value >= full - 1e-12 for _, value in ladder):
            continue
        exact = None
        if accuracy == "traversal_accuracy" and "answering_budget" in curve.columns and \
                set(curve["policy"]) == {"record"}:
            budgets = curve.drop_duplicates("query")["answering_budget"]
            exact = reach_of([None if pd.isna(value) else int(value) for value in budgets], full)
        found.append(Answering(str(name), exact) if exact is not None else
                     Answering(str(name), reach_budget(ladder, full), exact=False))
    return sorted(found, key=lambda item: (item.budget, item.choice))


def answering_in_picks(picks: pd.DataFrame, label_columns: Iterable[str] = ("format", "ordering", "layout", "policy"),
                       full: float = 1.0) -> list[Answering]:
    """From an advice's picks (the pick at each budget given): each budget whose pick answers fully."""
    columns = list(label_columns)
    rows = picks[picks["traversal_accuracy"] >= full - 1e-12].sort_values("budget")
    return [Answering(f"{row[columns[0]]} ({', '.join(str(row[name]) for name in columns[1:])})", int(row["budget"]))
            for _, row in rows.iterrows()]


def what_answers(budget: int, answering: list[Answering], where: str = "the swept budgets",
                 asked: str = "the query") -> str:
    """The sentence for a budget that answers nothing: the smallest budget that does, with what (the cheapest
    first, up to three), or that none of `where` does. A swept budget (`Answering.exact` false) is labelled one."""
    if not answering:
        return (f"Nothing answers {asked} at {budget:,} tokens, nor at any of {where}: add larger budgets, or "
                "another format, ordering or policy.")
    first, *others = sorted(answering, key=lambda item: (item.budget, item.choice))
    also = [item for item in others if item.choice != first.choice][:2]
    rest = "" if not also else " (then " + "; ".join(
        f"{item.choice} from {item.budget:,}{'' if item.exact else ' (swept)'}" for item in also) + ")"
    smallest = "The smallest budget that does" if first.exact else f"The smallest of {where} that does"
    return (f"Nothing answers {asked} at {budget:,} tokens. {smallest} is {first.budget:,} "
            f"tokens, with {first.choice}{rest}.")
