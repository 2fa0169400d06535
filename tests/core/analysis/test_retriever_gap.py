"""The retriever gap: the oracle's evidence survival and accuracy minus each realistic ordering's."""

from __future__ import annotations

import pytest

from core.analysis.retriever_gap import retriever_gap
from core.analysis.sweep import sweep
from core.errors import ParameterError
from core.io.generate import service_graph
from core.queries import IMPACT_OWNERS, query
from core.specs import SweepSpec

GRAPH = service_graph(12, 14, 7)
QUERY = query(IMPACT_OWNERS, failed="db-identity")


def test_the_gap_is_the_oracle_figure_minus_the_orderings_at_the_same_cut():
    frame = sweep(SweepSpec.from_names(GRAPH, [QUERY], format_names=["csv"],
                                       ordering_names=["evidence_first", "canonical", "question_bm25+ends"],
                                       layouts=["nodes_then_edges"], policy_names=["record"],
                                       budgets=[150, 400, 100_000]))
    gap = retriever_gap(frame)
    assert set(gap["ordering"]) == {"canonical", "question_bm25+ends"} and len(gap) == 6
    for row in gap.itertuples():
        ours = frame[(frame["ordering"] == row.ordering) & (frame["budget"] == row.budget)].iloc[0]
        oracle = frame[(frame["ordering"] == "evidence_first") & (frame["budget"] == row.budget)].iloc[0]
        assert row.evidence_gap == oracle.evidence_survival - ours.evidence_survival
        assert row.accuracy_gap == oracle.traversal_accuracy - ours.traversal_accuracy
    assert (gap[gap["budget"] == 100_000]["evidence_gap"] == 0).all()  # everything fits: no gap
    assert (gap[gap["budget"] == 150]["evidence_gap"] > 0).any()


def test_without_the_oracle_there_is_nothing_to_compare_with():
    frame = sweep(SweepSpec.from_names(GRAPH, [QUERY], format_names=["csv"], ordering_names=["canonical"],
                                       layouts=["nodes_then_edges"], policy_names=["record"],
                                       budgets=[150]))
    with pytest.raises(ParameterError, match="evidence_first"):
        retriever_gap(frame)
