"""Budget cuts as evaluation contexts, and the oracle's exact match equal to traversal accuracy on every cut."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from core.evaluate.contexts import cut_contexts, traversal_accuracy
from core.evaluate.readers import document_of
from core.evaluate.reader_server import ReaderServer
from core.evaluate.run import RunSettings, evaluate, plan
from core.evaluate.scoring import score_answer
from core.evaluate.store import RunStore
from core.generate import service_graph
from core.queries import IMPACT_OWNERS, label_of, query, reference_suite
from core.registry import FORMATS, QUERIES
from core.samples import load_sample
from tests.core.evaluate.conftest import endpoint

GRAPH = service_graph(9, 8, 7)
SERVICE_QUERIES = [reference_suite()["api_dependencies_3_hops"],
                   query(IMPACT_OWNERS, failed="db-identity", node_type="service", relation="depends_on",
                         owner_relation="owned_by")]
BUDGETS = [90, 200, 400, 4000]
JETSON = load_sample("nvidia-jetson")
LEARNING_QUERIES = [query(QUERIES.get("t1_entity"), concept="41"),
                    query(QUERIES.get("t2_prerequisites"), concept="28"),
                    query(QUERIES.get("t3_prerequisite_path"), start="9", concept="47"),
                    query(QUERIES.get("t4_taxonomy_members"), taxonomy="SDK"),
                    query(QUERIES.get("t5_relation"), first="12", second="11"),
                    query(QUERIES.get("shortest_path"), source="47", target="9")]
# Line formats, JSON, and semantic_text, whose pages can hold an edge without its node's record.
LEARNING_FORMATS = ["jsonl", "csv", "typed_edges", "local_ids", "semantic_text"]


def test_cuts_cover_every_combination_with_exact_token_counts():
    contexts = cut_contexts(GRAPH, SERVICE_QUERIES, ["jsonl", "pretty_json"], ["canonical", "hop_tiers"],
                            ["raw", "record"], BUDGETS, seeds=["db-identity"])
    assert len(contexts) == 2 * 2 * 2 * 2 * len(BUDGETS)
    for context in contexts:
        assert context.context_tokens <= context.budget_tokens
    whole = [context for context in contexts if context.budget_tokens == 4000]
    assert all(context.traversal_accuracy == 1.0 for context in whole)
    assert Counter(context.traversal_accuracy for context in contexts)[0.0] > 0


def test_traversal_accuracy_is_zero_for_a_document_that_does_not_decode():
    item = SERVICE_QUERIES[0]
    assert traversal_accuracy("pretty_json", '{"nodes": [', item, item.solve(GRAPH).answer) == 0.0


def test_the_oracle_exact_match_equals_traversal_accuracy_for_every_cut(server, tmp_path):
    """End to end over loopback HTTP: every format, three orderings, both policies, four budgets."""
    contexts = cut_contexts(GRAPH, SERVICE_QUERIES, FORMATS.names(), ["canonical", "evidence_first", "hop_tiers"],
                            ["raw", "record"], BUDGETS, seeds=["db-identity"], marker=True)
    settings = RunSettings(endpoint(server.url), concurrency=4)
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id, progress = evaluate(GRAPH, contexts, settings, store)
        rows = store.results(run_id)
    assert progress.failed == 0 and len(rows) == len(contexts)
    assert all(row["exact_match"] == row["traversal_accuracy"] for row in rows)
    assert {row["exact_match"] for row in rows} == {0, 1}
    assert {row["format"] for row in rows} == set(FORMATS.names())


def oracle_rows(graph, queries, question_names: str, layout: str):
    """Each cut's prompt as a run writes it, answered by the reader server's own handler (no transport)."""
    contexts = cut_contexts(graph, queries, LEARNING_FORMATS, ["canonical", "shuffled"], ["raw", "record"],
                            [150, 600, 5000], layout=layout, marker=True)
    settings = RunSettings(endpoint("http://127.0.0.1:9/v1"), question_names=question_names)
    server = ReaderServer(port=0)
    try:
        for number, (context, item) in enumerate(zip(contexts, plan(graph, contexts, settings, "run")), start=1):
            reply = json.loads(server.answer(number, item.body).body)
            content = reply["choices"][0]["message"]["content"]
            yield context, score_answer(item.schema, content, item.gold_answer).exact_match
    finally:
        server.stop()


@pytest.mark.parametrize("layout", ["nodes_then_edges", "interleaved"])
def test_questions_naming_ids_keep_the_oracle_equal_to_traversal_accuracy_on_a_learning_graph(layout):
    outcomes = Counter()
    for context, exact in oracle_rows(JETSON, LEARNING_QUERIES, "ids", layout):
        assert exact == context.traversal_accuracy, (context.format, context.ordering, context.budget_tokens)
        outcomes[exact] += 1
    assert outcomes[True] and outcomes[False]


def test_questions_naming_labels_differ_only_where_the_named_node_lost_its_record():
    """With labels, a reader needs the named node's record to know which id the label means."""
    differences = 0
    for context, exact in oracle_rows(JETSON, LEARNING_QUERIES, "labels", "nodes_then_edges"):
        if exact == context.traversal_accuracy:
            continue
        differences += 1
        decoded = FORMATS.get(context.format).decode(document_of(context.text))
        named = context.query.seeds
        assert context.traversal_accuracy == 1.0 and not exact
        assert any(label_of(decoded, node_id) != label_of(JETSON, node_id) for node_id in named)
    assert 0 < differences < 20  # rare: only formats that can hold an edge without its node's record
