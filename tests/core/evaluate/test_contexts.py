"""Budget cuts as evaluation contexts, and the oracle's exact match equal to traversal accuracy on every cut."""

from __future__ import annotations

from collections import Counter

from core.evaluate.contexts import cut_contexts, traversal_accuracy
from core.evaluate.run import RunSettings, evaluate
from core.evaluate.store import RunStore
from core.generate import service_graph
from core.queries import IMPACT_OWNERS, query, reference_suite
from core.registry import FORMATS
from tests.core.evaluate.conftest import endpoint

GRAPH = service_graph(9, 8, 7)
QUERIES = [reference_suite()["api_dependencies_3_hops"],
           query(IMPACT_OWNERS, failed="db-identity", node_type="service", relation="depends_on",
                 owner_relation="owned_by")]
BUDGETS = [90, 200, 400, 4000]


def test_cuts_cover_every_combination_with_exact_token_counts():
    contexts = cut_contexts(GRAPH, QUERIES, ["jsonl", "pretty_json"], ["canonical", "hop_tiers"], ["raw", "record"],
                            BUDGETS, seeds=["db-identity"])
    assert len(contexts) == 2 * 2 * 2 * 2 * len(BUDGETS)
    for context in contexts:
        assert context.context_tokens <= context.budget_tokens
    whole = [context for context in contexts if context.budget_tokens == 4000]
    assert all(context.traversal_accuracy == 1.0 for context in whole)
    assert Counter(context.traversal_accuracy for context in contexts)[0.0] > 0


def test_traversal_accuracy_is_zero_for_a_document_that_does_not_decode():
    assert traversal_accuracy("pretty_json", '{"nodes": [', QUERIES[0], QUERIES[0].solve(GRAPH).answer) == 0.0


def test_the_oracle_exact_match_equals_traversal_accuracy_for_every_cut(server, tmp_path):
    contexts = cut_contexts(GRAPH, QUERIES, FORMATS.names(), ["canonical", "evidence_first", "hop_tiers"],
                            ["raw", "record"], BUDGETS, seeds=["db-identity"], marker=True)
    settings = RunSettings(endpoint(server.url), concurrency=4)
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id, progress = evaluate(GRAPH, contexts, settings, store)
        rows = store.results(run_id)
    assert progress.failed == 0 and len(rows) == len(contexts)
    assert all(row["exact_match"] == row["traversal_accuracy"] for row in rows)
    assert {row["exact_match"] for row in rows} == {0, 1}
    assert {row["format"] for row in rows} == set(FORMATS.names())
