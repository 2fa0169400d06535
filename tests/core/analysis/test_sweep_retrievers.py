"""The sweep with retriever orderings, the sections policy and the placement columns."""

from __future__ import annotations

from core.analysis.sweep import sweep
from core.io.generate import service_graph
from core.queries import DEPENDENCIES, IMPACT_OWNERS, query
from core.specs import SweepSpec

GRAPH = service_graph(12, 14, 7)
QUERIES = [query(IMPACT_OWNERS, failed="db-identity"), query(DEPENDENCIES, start="svc-web", hops=2)]


def test_sections_cuts_parse_stay_within_budget_and_may_leave_edges_dangling():
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES, format_names=["jsonl", "csv", "compact_json"],
                                       ordering_names=["canonical", "personalized_pagerank"],
                                       layouts=["nodes_then_edges"], policy_names=["record", "sections"],
                                       budgets=[300, 600, 100_000]))
    sections = frame[frame["policy"] == "sections"]
    assert len(sections) == 3 * 2 * 3 * 2 and sections["parse_ok"].all()
    assert (sections["budgeted_tokens"] <= sections["budget"]).all()
    # nodes come first under the record policy, so no kept edge can lack its nodes there
    assert (frame[frame["policy"] == "record"]["dangling_edges"] == 0).all()
    assert (sections["dangling_edges"] > 0).any()
    # with room for everything, LightRAG's shares (46.7% of B) still hold the whole small graph
    assert (sections[sections["budget"] == 100_000]["evidence_survival"] == 1.0).all()


def test_evidence_positions_are_shares_of_the_context_and_bm25_is_ordered_per_question():
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES, format_names=["typed_edges"],
                                       ordering_names=["question_bm25", "question_bm25+ends"],
                                       layouts=["nodes_then_edges"], policy_names=["record"],
                                       budgets=[100_000]))
    kept = frame.dropna(subset=["evidence_position_first"])
    assert len(kept) == len(frame) == 4
    for column in ("evidence_position_first", "evidence_position_median", "evidence_position_last"):
        assert kept[column].between(0, 1).all()
    assert (kept["evidence_spread"] == kept["evidence_position_last"] - kept["evidence_position_first"]).all()
    assert (kept["evidence_position_first"] <= kept["evidence_position_median"]).all()
    plain = frame[frame["ordering"] == "question_bm25"].set_index("query")["evidence_position_first"]
    assert plain.nunique() == 2  # each query's own question decides its order


def test_the_sweep_takes_section_shares_and_the_command_line_reads_them(tmp_path):
    import pandas as pd

    from core.budget.sections import Sections
    from core.cli import main

    halves = sweep(SweepSpec.from_names(GRAPH, QUERIES[:1], format_names=["jsonl"], ordering_names=["hop_tiers"],
                                        layouts=["nodes_then_edges"], policy_names=["sections"], budgets=[600],
                                        sections=Sections(0.5, 0.5)))
    default = sweep(SweepSpec.from_names(GRAPH, QUERIES[:1], format_names=["jsonl"], ordering_names=["hop_tiers"],
                                         layouts=["nodes_then_edges"], policy_names=["sections"],
                                         budgets=[600]))
    assert halves["budgeted_tokens"].iloc[0] > default["budgeted_tokens"].iloc[0]  # 100% of B against 46.7%
    assert halves.attrs["parameters"]["sections"] == "nodes 50%, edges 50% of the budget"
    output = tmp_path / "rows.csv"
    assert main(["sweep", "--services", "12", "--noise-edges", "14", "--seed", "7", "--seeds", "db-identity",
                 "--formats", "jsonl", "--orderings", "hop_tiers", "--layouts", "nodes_then_edges", "--policies",
                 "sections", "--budgets", "600", "--sections", "0.5,0.5", "--no-progress", "--output",
                 str(output)]) == 0
    assert pd.read_csv(output)["budgeted_tokens"].tolist() == halves["budgeted_tokens"].tolist()


def test_shares_that_add_up_to_more_than_the_budget_are_refused(capsys):
    import pytest

    from core.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["sweep", "--services", "12", "--sections", "0.9,0.9"])
    assert stop.value.code == 2 and "add up" in capsys.readouterr().err
