"""The evaluation's command line: `serve-reader` on a free loopback port and `evaluate` against it."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def start_reader(*arguments: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "core.cli", "serve-reader", "--port", "0", *arguments],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line.startswith("reader server on http://127.0.0.1:"), line + process.stderr.read()
    return process, line.split()[3]


@pytest.fixture
def reader_process():
    process, url = start_reader()
    yield url
    process.terminate()
    process.wait(timeout=10)


def test_serve_reader_listens_on_loopback_and_lists_its_models(reader_process):
    assert reader_process.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(reader_process + "/models", timeout=5) as response:
        models = [model["id"] for model in json.load(response)["data"]]
    assert models == ["oracle", "first-k"]


def evaluate_command(url: str, store: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "core.cli", "evaluate", "--services", "8", "--noise-edges", "6", "--seeds", "db-identity",
            "--formats", "jsonl,csv,typed_edges", "--budgets", "60,120,240,2000", "--trials", "2",
            "--concurrency", "2", "--base-url", url, "--store", str(store), "--api-key-env", "GCL_TEST_API_KEY",
            "--price", "1.5,6", *extra]


def test_a_killed_evaluation_resumes_without_repeating_finished_requests(server, tmp_path):
    import os
    import signal
    import sqlite3
    import time

    from tests.core.evaluate.conftest import API_KEY

    server.intercept = lambda number, body: time.sleep(0.1)  # slow enough to be killed halfway
    store = tmp_path / "runs.sqlite"
    environment = {**os.environ, "GCL_TEST_API_KEY": API_KEY}
    first = subprocess.Popen(evaluate_command(server.url, store), cwd=ROOT, env=environment,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while server.requests_received < 6 and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.01)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    sent_before_kill = server.requests_received
    with sqlite3.connect(store) as connection:
        answered = connection.execute("SELECT COUNT(*) FROM answers WHERE failure_reason = ''").fetchone()[0]
    total = 3 * 4 * 2  # formats x budgets x trials (one query)
    assert 6 <= sent_before_kill < total and answered >= sent_before_kill - 2  # at most the 2 in flight are lost

    second = subprocess.run(evaluate_command(server.url, store), cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    assert server.requests_received - sent_before_kill == total - answered  # only the missing ones were sent
    assert f"{total - answered} sent, {answered} cached, 0 failed" in second.stdout
    with sqlite3.connect(store) as connection:
        run_id = connection.execute("SELECT run_id FROM runs ORDER BY created_at DESC").fetchone()[0]
        rows = connection.execute("SELECT exact_match, traversal_accuracy FROM results WHERE run_id = ?",
                                  (run_id,)).fetchall()
    assert len(rows) == total and all(exact == traversal for exact, traversal in rows)
    assert {exact for exact, _ in rows} == {0, 1}
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    assert API_KEY.encode() not in stored and API_KEY not in second.stdout + second.stderr


def test_failed_requests_make_the_command_exit_non_zero_and_say_how_to_retry(closed_port, tmp_path, capsys):
    from core.cli import main
    command = evaluate_command(f"http://127.0.0.1:{closed_port}/v1", tmp_path / "runs.sqlite", "--retries", "0",
                               "--budgets", "2000", "--trials", "1")
    assert main(command[3:]) == 1
    output = capsys.readouterr()
    assert "3 failed" in output.out and "run the same command again to retry" in output.err


@pytest.mark.timeout(60)
def test_a_long_retry_after_is_said_on_the_command_line_and_not_slept_through(server, tmp_path, capsys):
    """D29: a 429 with Retry-After: 3600 failed in 2 s with no word of the wait ("reasons in the store")."""
    import time

    from core.cli import main
    from core.evaluate.reader_server import Reply

    server.intercept = lambda number, body: Reply(429, '{"error": {"message": "slow down"}}', {"retry-after": "3600"})
    command = evaluate_command(server.url, tmp_path / "runs.sqlite", "--retries", "3", "--timeout", "10",
                               "--budgets", "2000", "--trials", "1", "--formats", "csv")
    started = time.perf_counter()
    assert main(command[3:]) == 1
    assert time.perf_counter() - started < 30
    lines = [line for line in capsys.readouterr().err.splitlines() if "request(s) failed" in line]
    assert lines == [
        "1 request(s) failed; the first: HTTP 429: {\"error\": {\"message\": \"slow down\"}} (the server asked to wait "
        "3,600 s before retrying, longer than this run's timeout of 10 s, so it was not retried: run the same command "
        "later or raise --timeout; answered requests are kept); run the same command again to retry them (every "
        "reason is in the store; answered requests are not sent again)"]


@pytest.mark.parametrize("arguments, message", [
    (["--formats", "jsonl,yaml-ish"], "unknown format 'yaml-ish'"),
    (["--price", "cheap"], "INPUT,OUTPUT"),
    (["--budgets", "100,-5"], "negative"),
    (["--question-names", "nicknames"], "invalid choice"),
])
def test_bad_evaluate_arguments_exit_with_a_clear_message(arguments, message, capsys):
    from core.cli import main
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", *arguments])
    assert exit_.value.code != 0 and message in capsys.readouterr().err


@pytest.mark.parametrize("arguments, message", [
    (["--query", "everything"], "unknown query 'everything'"),
    (["--orderings", "hop_tiers", "--query", "t4_taxonomy_members:taxonomy=SDK"], "has no answer on this graph"),
    (["--query", "impact_owners"], "seeds ran out"),
])
def test_bad_queries_and_missing_seeds_are_refused_before_any_request(arguments, message, capsys):
    from core.cli import main
    assert main(["evaluate", "--services", "5", "--noise-edges", "4", "--budgets", "100", *arguments]) == 2
    assert message in capsys.readouterr().err
