"""The sweep's cuts as evaluation contexts, and the oracle's exact match equal to traversal accuracy on every cut."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from core.analysis.answer_contexts import SweepOptions, sweep_contexts
from core.budget.policies import cut
from core.evaluate.reader_server import ReaderServer
from core.evaluate.readers import document_of
from core.evaluate.run import RunSettings, evaluate, plan
from core.evaluate.scoring import score_answer
from core.evaluate.store import RunStore
from core.formats import FORMATS
from core.io.generate import service_graph
from core.io.samples import load_sample
from core.queries import IMPACT_OWNERS, QUERIES, label_of, query, reference_suite
from core.retrieval import ORDERINGS
from tests.core.evaluate.conftest import endpoint

GRAPH = service_graph(9, 8, 7)
SERVICE_QUERIES = [reference_suite()["api_dependencies_3_hops"],
                   query(IMPACT_OWNERS, failed="db-identity", node_type="service", relation="depends_on",
                         owner_relation="owned_by")]
BUDGETS = (0, 90, 200, 400, 4000)
JETSON = load_sample("nvidia-jetson")
LEARNING_QUERIES = [query(QUERIES.get("t1_entity"), concept="41"),
                    query(QUERIES.get("t2_prerequisites"), concept="28"),
                    query(QUERIES.get("t3_prerequisite_path"), start="9", concept="47"),
                    query(QUERIES.get("t4_taxonomy_members"), taxonomy="SDK"),
                    query(QUERIES.get("t5_relation"), first="12", second="11"),
                    query(QUERIES.get("shortest_path"), source="47", target="9")]
# Line formats, JSON, and semantic_text, whose pages can hold an edge without its node's record.
LEARNING_FORMATS = tuple(name for name in ("jsonl", "csv", "typed_edges", "local_ids", "semantic_text")
                         if name in FORMATS)


def test_contexts_are_the_sweeps_cuts_with_its_metrics():
    options = SweepOptions(formats=("jsonl", "pretty_json"), orderings=("canonical", "hop_tiers"),
                           layouts=("nodes_then_edges", "interleaved"), policies=("raw", "record"), budgets=BUDGETS)
    contexts, frame = sweep_contexts(GRAPH, SERVICE_QUERIES, options, seeds=["db-identity"])
    assert len(contexts) == len(frame) == 2 * 2 * 3 * 2 * len(BUDGETS)  # pretty_json has one layout
    for context, row in zip(contexts, frame.itertuples()):
        assert (context.format, context.ordering, context.layout, context.policy, context.budget_tokens) == (
            row.format, row.ordering, row.layout, row.policy, row.budget)
        assert context.traversal_accuracy == row.traversal_accuracy and context.context_tokens == row.tokens
    by_budget = {budget: {c.traversal_accuracy for c in contexts if c.budget_tokens == budget} for budget in BUDGETS}
    assert by_budget[0] == {0.0} and by_budget[4000] == {1.0} and set().union(*by_budget.values()) == {0.0, 1.0}


def test_a_context_text_is_the_cut_the_sweep_measured():
    from core.graph.units import graph_units
    from core.retrieval import ORDERINGS
    from core.retrieval.ordering import OrderingInputs, order_units
    from core.tokens import TOKENIZERS
    from core.tokens.prefix_tokens import prefix_tokens
    options = SweepOptions(formats=("typed_edges",), policies=("raw",), budgets=(150,), marker=True)
    [context], _ = sweep_contexts(GRAPH, SERVICE_QUERIES[:1], options)
    format_ = FORMATS.get("typed_edges")
    units = order_units(GRAPH, graph_units(GRAPH), ORDERINGS.get("canonical"), "nodes_then_edges",
                        OrderingInputs(("svc-api",)))
    expected = cut(prefix_tokens(format_.render(GRAPH, units), TOKENIZERS.get("o200k_base")), format_, "raw", 150,
                   marker=True)
    assert context.text == expected.text and context.text.endswith("tokens shown]")


def test_the_oracle_exact_match_equals_traversal_accuracy_for_every_cut(server, tmp_path):
    """End to end over loopback HTTP: every format, two orderings, both policies, three budgets."""
    options = SweepOptions(formats=FORMATS.names(), orderings=("canonical", "hop_tiers"), policies=("raw", "record"),
                           budgets=(0, 200, 4000), marker=True)
    contexts, _ = sweep_contexts(GRAPH, SERVICE_QUERIES, options, seeds=["db-identity"])
    settings = RunSettings(endpoint(server.url), concurrency=4)
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id, progress = evaluate(GRAPH, contexts, settings, store)
        rows = store.results(run_id)
    assert progress.failed == 0 and len(rows) == len(contexts)
    assert all(row["exact_match"] == row["traversal_accuracy"] for row in rows)
    assert {row["exact_match"] for row in rows} == {0, 1}
    assert {row["format"] for row in rows} == set(FORMATS.names())


def oracle_rows(graph, queries, question_names: str, layout: str, options: SweepOptions | None = None, seeds=None):
    """Each cut's prompt as a run writes it, answered by the reader server's own handler (no transport)."""
    options = options or SweepOptions(formats=LEARNING_FORMATS, orderings=("canonical", "shuffled"),
                                      layouts=(layout,), policies=("raw", "record"), budgets=(150, 600, 5000),
                                      marker=True)
    contexts, _ = sweep_contexts(graph, queries, options, seeds=seeds)
    settings = RunSettings(endpoint("http://127.0.0.1:9/v1"), question_names=question_names)
    server = ReaderServer(port=0)
    try:
        for number, (context, item) in enumerate(zip(contexts, plan(graph, contexts, settings, "run")), start=1):
            reply = json.loads(server.answer(number, item.body).body)
            content = reply["choices"][0]["message"]["content"]
            yield context, score_answer(item.schema, content, item.gold_answer).exact_match
    finally:
        server.stop()


def test_every_ordering_and_layout_keeps_the_oracle_equal_to_traversal_accuracy():
    options = SweepOptions(formats=("pretty_json", *LEARNING_FORMATS), orderings=tuple(ORDERINGS.names()),
                           layouts=("nodes_then_edges", "interleaved"), policies=("raw", "record"),
                           budgets=(200, 400), marker=True)
    outcomes = Counter()
    for context, exact in oracle_rows(GRAPH, SERVICE_QUERIES, "labels", "", options, seeds=["db-identity"]):
        assert exact == context.traversal_accuracy, (context.format, context.ordering, context.layout)
        outcomes[exact] += 1
    assert outcomes[True] and outcomes[False]


@pytest.mark.parametrize("layout", ["nodes_then_edges", "interleaved"])
def test_questions_naming_ids_keep_the_oracle_equal_to_traversal_accuracy_on_a_learning_graph(layout):
    outcomes = Counter()
    for context, exact in oracle_rows(JETSON, LEARNING_QUERIES, "ids", layout):
        assert exact == context.traversal_accuracy, (context.format, context.ordering, context.budget_tokens)
        outcomes[exact] += 1
    assert outcomes[True] and outcomes[False]


def test_questions_naming_labels_differ_only_where_the_named_node_lost_its_record():
    """With labels, a reader needs the named node's record to know which id the label means."""
    for context, exact in oracle_rows(JETSON, LEARNING_QUERIES, "labels", "nodes_then_edges"):
        if exact != context.traversal_accuracy:
            decoded = FORMATS.get(context.format).decode(document_of(context.text))
            assert context.traversal_accuracy == 1.0 and not exact
            assert any(label_of(decoded, node_id) != label_of(JETSON, node_id) for node_id in context.query.seeds)


def test_an_edge_without_its_node_record_answers_by_id_but_not_by_label(server, tmp_path):
    from core.graph.units import graph_units
    from core.prompt.context import Context
    prerequisites = LEARNING_QUERIES[1]  # of concept 28, asked as "What are the prerequisites for <label>?"
    rendering = FORMATS.get("typed_edges").render(JETSON, graph_units(JETSON))
    text = rendering.preamble + "".join(record.text for record in rendering.records if record.unit_keys != ("n:28",))
    decoded = FORMATS.get("typed_edges").decode(text)
    assert decoded.node_by_id["28"].type == "unknown"  # its edges survive, its record (and label) do not
    assert prerequisites.solve(decoded).answer == prerequisites.solve(JETSON).answer  # traversal accuracy 1.0
    context = Context(prerequisites, "typed_edges", "canonical", "record", 10_000, text, 0, 1.0)
    exact = {}
    for names in ("ids", "labels"):
        with RunStore(tmp_path / f"{names}.sqlite") as store:
            run_id, _ = evaluate(JETSON, [context], RunSettings(endpoint(server.url), question_names=names), store)
            [row] = store.results(run_id)
        exact[names] = row["exact_match"]
    assert exact == {"ids": 1, "labels": 0}


def test_adversarial_ids_in_questions_and_data_keep_the_oracle_equal_to_traversal_accuracy(server, tmp_path):
    """Empty ids, line breaks, CRLF, pipes, quotes, markup and special-token text, over loopback HTTP."""
    graph = load_sample("adversarial")
    named = [node.id for node in graph.nodes if node.id == "" or "\n" in node.id or "<" in node.id]
    assert "" in named and len(named) >= 3
    queries = [query(QUERIES.get("typed_neighbours"), node=node_id, relation=graph.edges[0].relation,
                     direction="both") for node_id in named]
    options = SweepOptions(formats=FORMATS.names(), policies=("raw", "record"), budgets=(60, 100_000), marker=True)
    contexts, _ = sweep_contexts(graph, queries, options, seeds=named[:1])
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id, progress = evaluate(graph, contexts, RunSettings(endpoint(server.url), concurrency=4), store)
        rows = store.results(run_id)
    assert progress.failed == 0 and len(rows) == len(contexts)
    assert all(row["exact_match"] == row["traversal_accuracy"] for row in rows)
    assert {row["exact_match"] for row in rows} == {0, 1}
