"""The advisor's candidates from a stored run: ranked by the model's answers instead of the traversal layer.

A stored run (`core.evaluate.store`) holds, per question, candidate (format, ordering, layout, policy)
and budget, the model's scored answer for each trial. Here a question counts as answered when most of
its trials matched the gold answer exactly (all of them for one trial), so the advisor's ranking rule
(`core.analysis.ranking`: accuracy with its Wilson interval over questions, then the smallest budget
reaching it, then tokens) applies unchanged; tokens are the context's plus the grammar's. Requests that
failed (no stored answer) are left out; the advice says which layer it ranked by.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from core.errors import ParameterError
from core.formats import FORMATS


def answer_rows(results: Iterable[dict]) -> pd.DataFrame:
    """Candidate rows (the advisor's columns) from stored result rows: one per (question, candidate, budget)."""
    answered = [row for row in results if row.get("exact_match") is not None]
    if not answered:
        raise ParameterError("the run holds no scored answer", "--from-run",
                             "name a run whose requests were answered (graph-context-lab evaluate)")
    frame = pd.DataFrame(answered)
    keys = ["tokenizer", "budget_tokens", "format", "ordering", "layout", "policy", "query_key"]
    grouped = frame.groupby(keys, sort=False).agg(
        matched=("exact_match", "mean"), context_tokens=("context_tokens", "first"),
        grammar_tokens=("grammar_tokens", "first")).reset_index()
    return pd.DataFrame({
        "tokenizer": grouped["tokenizer"], "budget": grouped["budget_tokens"].astype(int),
        "format": grouped["format"], "ordering": grouped["ordering"], "layout": grouped["layout"],
        "policy": grouped["policy"], "query": grouped["query_key"],
        "traversal_accuracy": (grouped["matched"] > 0.5).astype(float),  # most trials matched exactly
        "evidence_survival": float("nan"),  # not stored with the answers
        "budgeted_tokens": grouped["context_tokens"] + grouped["grammar_tokens"],
        "lossless": [FORMATS.get(name).lossless for name in grouped["format"]]})
