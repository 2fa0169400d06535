"""Cut metrics: size, parse, survival of evidence and candidates, traversal accuracy, the boundary."""

from __future__ import annotations

from core.budget.policies import cut
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.metrics.cut_metrics import KeptKeys, decode_cut, measure_cut
from core.queries import IMPACT_OWNERS, SHORTEST_PATH, query
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

GRAPH = service_graph(40, 80, 7)
O200K = TOKENIZERS.get("o200k_base")
QUESTION = query(IMPACT_OWNERS, failed="db-identity")
GOLD = QUESTION.solve(GRAPH)


def measured(name: str, policy: str, budget: int, bound=QUESTION, gold=GOLD, candidates=frozenset()):
    format_ = FORMATS.get(name)
    accounting = prefix_tokens(format_.render(GRAPH, graph_units(GRAPH)), O200K)
    result = cut(accounting, format_, policy, budget)
    return result, measure_cut(result, bound, gold, decode_cut(result, format_), candidates=candidates)


def test_an_uncut_rendering_answers_and_keeps_everything():
    result, metrics = measured("typed_edges", "record", 10_000, candidates={"n:db-identity"})
    assert metrics.parse_ok and metrics.traversal_accuracy == 1.0 and metrics.evidence_complete
    assert metrics.evidence_survival == 1.0 and metrics.candidate_recall == 1.0
    assert (metrics.nodes_retained, metrics.edges_retained) == (43, 88)
    assert metrics.first_dropped_record is None and metrics.first_dropped_keys == ()
    assert metrics.bytes == len(result.text.encode()) and metrics.characters == len(result.text)
    assert metrics.tokens == O200K.count(result.text)


def test_a_raw_cut_through_json_does_not_parse_and_scores_zero_but_still_counts_whole_records():
    result, metrics = measured("compact_json", "raw", 900)
    assert not metrics.parse_ok and metrics.traversal_accuracy == 0.0 and "invalid JSON" in metrics.decode_error
    assert metrics.records_kept == result.records_kept > 0
    assert 0.0 < metrics.evidence_survival < 1.0 and not metrics.evidence_complete
    assert metrics.first_dropped_record == result.records_kept


def test_a_valid_but_incomplete_cut_parses_and_still_gets_the_answer_wrong():
    _, metrics = measured("compact_json", "record", 900)
    assert metrics.parse_ok and metrics.traversal_accuracy == 0.0 and metrics.evidence_survival < 1.0


def test_an_empty_cut_keeps_nothing_and_says_why():
    _, metrics = measured("pretty_json", "record", 10)
    assert not metrics.parse_ok and metrics.records_kept == 0 and metrics.evidence_survival == 0.0
    assert "nothing fits" in metrics.explanation and metrics.first_dropped_record == 0


def test_an_answer_that_needs_no_evidence_survives_fully():
    no_path = query(SHORTEST_PATH, source="db-identity", target="svc-web")
    _, metrics = measured("jsonl", "record", 600, no_path, no_path.solve(GRAPH))
    assert metrics.evidence_total == 0 and metrics.evidence_survival == 1.0 and metrics.evidence_complete
    assert metrics.traversal_accuracy == 1.0  # the decoded prefix has no path either


def test_kept_keys_answer_membership_from_record_positions():
    kept = KeptKeys({"n:a": 0, "n:b": 1, "e:a|r|b": 2}, 2)
    assert "n:b" in kept and "e:a|r|b" not in kept and "n:zz" not in kept
    assert sorted(kept) == ["n:a", "n:b"] and len(kept) == 2 and kept["n:a"] == 0
