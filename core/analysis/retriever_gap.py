"""The retriever gap: how far each realistic ordering falls short of the `evidence_first` oracle, per budget.

A real retriever ranks without the answer (personalized PageRank, centrality, BM25, breadth-first,
hop tiers, each optionally `+ends`); `evidence_first` reads the gold evidence and is the upper bound.
For every (format, layout, policy, budget, query) the gap is the oracle's figure minus the
ordering's: evidence survival and traversal accuracy, so 0 means "as good as knowing the answer".
"""

from __future__ import annotations

import pandas as pd

from core.errors import ParameterError
from core.retrieval import ORDERINGS

ORACLE = "evidence_first"
KEYS = ["query", "format", "layout", "policy", "budget"]


def realistic_orderings(names) -> list[str]:
    """The orderings that do not read the answer, in the order given."""
    return [name for name in names if not ORDERINGS.get(name).oracle]


def retriever_gap(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per realistic ordering and cut coordinates: its figures, the oracle's, and the gaps."""
    if ORACLE not in set(frame["ordering"]):
        raise ParameterError("the sweep has no evidence_first rows to compare with", "retriever gap",
                             "include the evidence_first ordering in the sweep")
    oracle = frame[frame["ordering"] == ORACLE][KEYS + ["evidence_survival", "traversal_accuracy"]].rename(
        columns={"evidence_survival": "oracle_evidence_survival", "traversal_accuracy": "oracle_traversal_accuracy"})
    names = realistic_orderings(dict.fromkeys(frame["ordering"]))
    rows = frame[frame["ordering"].isin(names)][KEYS + ["ordering", "evidence_survival", "traversal_accuracy",
                                                        "budgeted_tokens"]]
    merged = rows.merge(oracle, on=KEYS, how="left", validate="many_to_one")
    merged["evidence_gap"] = merged["oracle_evidence_survival"] - merged["evidence_survival"]
    merged["accuracy_gap"] = merged["oracle_traversal_accuracy"] - merged["traversal_accuracy"]
    return merged[["ordering", *KEYS, "evidence_survival", "oracle_evidence_survival", "evidence_gap",
                   "traversal_accuracy", "oracle_traversal_accuracy", "accuracy_gap", "budgeted_tokens"]]
