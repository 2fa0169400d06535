"""An evaluation run end to end over loopback HTTP: rows stored, cached on re-run, failures recorded, key never stored."""

from __future__ import annotations

import contextlib
import json
import time

from core.analysis.answer_summary import summarise
from core.evaluate.reader_server import Reply, completion_body
from core.evaluate.run import RunSettings, evaluate
from core.evaluate.store import RunStore
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.prompt.context import Context
from core.prompt.pricing import PriceTable
from core.queries import IMPACT_OWNERS, query, reference_suite
from core.tokens import TOKENIZERS
from tests.core.evaluate.conftest import API_KEY, endpoint

GRAPH = service_graph(10, 8, 7)
QUERIES = [*reference_suite().values(),
           query(IMPACT_OWNERS, failed="db-identity", node_type="service", relation="depends_on",
                 owner_relation="owned_by")]


def contexts(formats=("jsonl", "typed_edges"), keep=(None, 6), queries=QUERIES, marker: str = "") -> list[Context]:
    """Whole renderings and short record prefixes (a stand-in for budget cuts)."""
    tokenizer = TOKENIZERS.get("o200k_base")
    items = []
    for name in formats:
        rendering = FORMATS.get(name).render(GRAPH, graph_units(GRAPH))
        for count in keep:
            text = rendering.prefix_text(len(rendering.records) if count is None else count) + marker
            budget = tokenizer.count(text)
            for item in queries:
                items.append(Context(item, name, "canonical", "record", budget, text, budget))
    return items


def run(server_or_url, store, items, model="oracle", trials=1, progress=None, should_stop=None, **settings):
    url = server_or_url if isinstance(server_or_url, str) else server_or_url.url
    prices = settings.pop("prices", PriceTable(2.0, 8.0))
    run_settings = RunSettings(endpoint(url, model, **settings), trials=trials, concurrency=3, prices=prices)
    return evaluate(GRAPH, items, run_settings, store, progress=progress, should_stop=should_stop)


def test_a_run_stores_one_row_per_context_query_and_trial(server, tmp_path):
    items = contexts()
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id, progress = run(server, store, items, trials=2)
        rows = store.results(run_id)
    assert len(rows) == len(items) * 2 == progress.total and progress.failed == 0
    assert server.requests_received == progress.sent == len(items) * 2
    row = rows[0]
    assert row["model"] == "oracle" and row["tokenizer"] == "o200k_base" and len(row["graph_hash"]) == 64
    assert row["prompt_tokens_reported"] == row["prompt_tokens_counted"]  # the reader server counts with o200k
    assert row["latency_ms"] > 0 and json.loads(row["raw_request"])["body"]["model"] == "oracle"
    whole = [row for row in rows if row["context_tokens"] > 300]
    assert whole and all(row["exact_match"] == 1 for row in whole)
    assert {row["trial"] for row in rows} == {0, 1}


def test_a_finished_run_repeated_sends_nothing(server, tmp_path):
    items = contexts(formats=("csv",))
    with RunStore(tmp_path / "runs.sqlite") as store:
        _, first = run(server, store, items)
        sent = server.requests_received
        second_id, second = run(server, store, items)
        assert server.requests_received == sent and second.cached == second.total == first.total
        assert len(store.results(second_id)) == len(items)


def test_identical_prompts_are_sent_once(server, tmp_path):
    items = contexts(formats=("csv",), keep=(None,))
    doubled = items + [Context(item.query, item.format, "shuffled", item.policy, item.budget_tokens, item.text,
                               item.context_tokens) for item in items]
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id, progress = run(server, store, doubled)
        assert len(store.results(run_id)) == len(doubled)
    assert server.requests_received == progress.total == len(items)


def slowly(number, body):
    """Answer normally, a little late, so that a stop finds most requests still queued."""
    time.sleep(0.05)


def test_a_stopped_run_records_what_was_in_flight_and_a_rerun_sends_the_rest(server, tmp_path):
    server.intercept = slowly
    items = contexts(formats=("jsonl", "csv"), keep=(None,))
    with RunStore(tmp_path / "runs.sqlite") as store:
        _, stopped = run(server, store, items, should_stop=lambda: True)
        assert stopped.stopped and stopped.done < stopped.total
        assert server.requests_received == stopped.done  # in flight at the stop, and still recorded
        _, resumed = run(server, store, items)
    assert resumed.cached == stopped.done and server.requests_received == len(items)


def test_an_interrupted_run_sends_nothing_more(server, tmp_path):
    class Interrupted(Exception):
        pass

    def interrupt(progress):
        if progress.done >= 2:
            raise Interrupted  # what a dashboard rerun does to a running script

    server.intercept = slowly
    items = contexts(formats=("jsonl", "csv"), keep=(None,))
    with RunStore(tmp_path / "runs.sqlite") as store:
        with contextlib.suppress(Interrupted):
            run(server, store, items, progress=interrupt)
        sent = server.requests_received
        assert 2 <= sent < len(items)
        _, resumed = run(server, store, items)
    assert resumed.cached >= 2 and server.requests_received == sent + resumed.total - resumed.cached


def test_failures_are_recorded_with_a_reason_and_the_run_goes_on(server, tmp_path):
    seen: dict[str, int] = {}

    def misbehave(number, body):
        prompt = body["messages"][-1]["content"]
        question = prompt.split("Question:\n")[1].split("\n")[0]
        seen[question] = seen.get(question, 0) + 1
        if "reach over" in question:
            return Reply(500, '{"error": {"message": "boom"}}')
        if "teams own them" in question:
            return Reply(200, completion_body("{}", "oracle", 1, 1, number), delay_seconds=1.0)
        if "which owned_by targets" in question:
            return Reply(200, completion_body("The owners are team-core and team-growth.", "oracle", 50, 9, number))
        if seen[question] == 1:
            return Reply(429, '{"error": {"message": "slow down"}}', {"retry-after-ms": "10"})
        return None

    server.intercept = misbehave
    items = contexts(formats=("jsonl",), keep=(None,))
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id, progress = run(server, store, items, timeout_seconds=0.4, max_retries=1)
        rows = {row["query"]: row for row in store.results(run_id)}
    assert progress.done == progress.total == 4 and progress.failed == 2
    assert rows["dependencies_within"]["failure_reason"].startswith("HTTP 500: ")
    assert rows["impact_owners"]["failure_reason"].startswith("timeout after 0.4 s")
    prose = rows["owners_of_affected"]
    assert prose["failure_reason"] == "" and prose["parse_success"] == 0 and prose["exact_match"] == 0
    assert prose["parse_error"].startswith("not JSON")
    retried = rows["impact"]
    assert retried["failure_reason"] == "" and retried["exact_match"] == 1
    assert json.loads(retried["attempt_statuses"]) == ["429", "200"]


def test_a_refused_connection_fails_every_request_and_a_later_run_retries_them(server, closed_port, tmp_path):
    items = contexts(formats=("jsonl",), keep=(None,))
    with RunStore(tmp_path / "runs.sqlite") as store:
        refused_id, refused = run(f"http://127.0.0.1:{closed_port}/v1", store, items)
        assert refused.failed == refused.total == len(items)
        assert all(row["failure_reason"].startswith("connection failed") for row in store.results(refused_id))
        retried_id, retried = run(server, store, items)
        assert retried.failed == 0 and retried.cached == 0 and server.requests_received == len(items)
        assert all(row["exact_match"] == 1 for row in store.results(retried_id))


def test_the_api_key_never_reaches_the_store(server, tmp_path, monkeypatch, caplog):
    import logging
    monkeypatch.setenv("GCL_TEST_API_KEY", API_KEY)
    caplog.set_level(logging.DEBUG)
    server.intercept = lambda number, body: Reply(500, "{}") if number == 1 else None
    path = tmp_path / "runs.sqlite"
    with RunStore(path) as store:
        run(server, store, contexts(formats=("csv",), keep=(None,)), max_retries=0)
    stored = b"".join(file.read_bytes() for file in tmp_path.iterdir())
    assert path.stat().st_size > 0 and b"GCL_TEST_API_KEY" in stored  # the variable's name is recorded...
    assert API_KEY.encode() not in stored and API_KEY not in caplog.text  # ...its value never


def test_the_summary_has_intervals_cost_and_latency(server, tmp_path):
    items = contexts(formats=("typed_edges",))
    with RunStore(tmp_path / "runs.sqlite") as store:
        run_id, progress = run(server, store, items, trials=2, prices=PriceTable(2.0, 8.0))
        rows = store.results(run_id)
    table = summarise(rows, PriceTable(2.0, 8.0)).set_index("budget_tokens")
    whole = table.loc[table.index.max()]
    assert whole["exact_match"] == 1.0 and whole["answered"] == len(QUERIES) * 2 and whole["queries"] == len(QUERIES)
    assert whole["exact_match_low"] < 1.0 == whole["exact_match_high"]
    prompt, completion = whole["prompt_tokens_reported"], whole["completion_tokens_reported"]
    assert whole["cost"] == prompt / 1e6 * 2.0 + completion / 1e6 * 8.0
    assert abs(table["cost"].sum() - progress.cost) < 1e-12
    assert whole["affected_services_f1"] == 1.0 and whole["latency_ms_median"] > 0
