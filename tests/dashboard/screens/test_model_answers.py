"""The Model answers page in AppTest: the bundled model offered first and answering, the oracle run without an
endpoint, figures equal to core's, endpoint settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.analysis.answer_summary import summarise
from core.evaluate.reader_server import ReaderServer
from core.evaluate.request_counters import family_counter
from core.evaluate.store import DEFAULT_PATH, RunStore
from core.io.samples import sample_names
from core.prompt.pricing import PriceTable
from dashboard.views.markdown_text import escape_markdown
from tests.core.evaluate.conftest import loopback_only  # noqa: F401  (autouse: loopback connections only)
from tests.dashboard.conftest import on_page, started, unescaped

KEY = "sk-page-test-9d2e-never-stored"
STORE = DEFAULT_PATH.name  # the page offers the stores in the server's folder: the test's folder, below


@pytest.fixture(autouse=True)
def in_a_folder_of_its_own(tmp_path, monkeypatch):
    """The server's folder (where the page finds run stores) is the test's temporary folder."""
    monkeypatch.chdir(tmp_path)


def page(tmp_path: Path, budgets: str = "300, 900, 5000") -> AppTest:
    app = on_page(started(), "model_answers")
    app.radio(key="answers_reader").set_value("oracle")
    app.text_input(key="answers_budgets").set_value(budgets).run()
    assert not app.exception, [item.value for item in app.exception]
    return app


def run(app: AppTest) -> AppTest:
    app.button(key="answers_run").click().run()
    assert not app.exception, [item.value for item in app.exception]
    return app


def test_without_an_endpoint_the_page_explains_how_to_start_one(tmp_path):
    app = page(tmp_path)
    help_text = " ".join(item.value for item in app.markdown)
    for server in ("ollama serve", "vllm serve", "llama-server", "graph-context-lab serve-reader"):
        assert server in help_text
    assert "No run store yet" in " ".join(item.value for item in app.caption)


def test_the_oracle_run_stores_rows_and_shows_cores_figures(tmp_path):
    app = run(page(tmp_path))
    assert app.success and "0 failed" in app.success[0].value
    with RunStore(tmp_path / STORE) as store:
        [stored_run] = store.runs()
        rows = store.results(stored_run["run_id"])
    assert rows and all(row["exact_match"] == row["traversal_accuracy"] for row in rows)
    shown = app.dataframe[0].value
    expected = summarise(rows, PriceTable())
    assert shown[["format", "budget_tokens", "exact_match"]].equals(expected[["format", "budget_tokens", "exact_match"]])
    assert set(shown["budget_tokens"]) == {300, 900, 5000}
    prompt = app.code[0].value
    assert prompt.startswith("You answer only from the graph data below.") and "GRAPH_DATA:\n" in prompt


def test_a_second_run_sends_nothing_new(tmp_path):
    app = run(page(tmp_path))
    first = app.success[0].value
    run(app)
    second = app.success[0].value
    sent = int(first.split(": ")[1].split(" sent")[0])
    assert sent > 0 and f"0 sent, {sent} cached" in second


def test_an_endpoint_with_a_session_key_answers_and_the_key_is_not_stored(tmp_path):
    with ReaderServer() as server:
        app = page(tmp_path, budgets="5000")
        app.radio(key="answers_reader").set_value("endpoint").run()
        app.text_input(key="answers_base_url").set_value(server.url)
        app.text_input(key="answers_model").set_value("first-k")
        app.radio(key="answers_key_source").set_value("password field").run()
        app.text_input(key="answers_key").set_value(KEY).run()
        run(app)
        received = server.requests_received
    assert received > 0 and "0 failed" in app.success[0].value
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    assert KEY.encode() not in stored and b"first-k" in stored


def test_an_unknown_typed_model_is_counted_on_its_text_and_the_page_says_how_to_name_its_family(tmp_path):
    app = page(tmp_path)
    app.radio(key="answers_reader").set_value("endpoint").run()
    said = unescaped(" ".join(item.value for item in app.caption))
    assert "not as the model reads them: the lab does not know model 'llama3.2' (choose its Model family)" in said
    assert "--model-family" not in said


def test_a_typed_endpoint_of_a_named_family_stores_prompt_tokens_as_that_model_reads_them(tmp_path):
    with ReaderServer() as server:
        app = page(tmp_path, budgets="5000")
        app.radio(key="answers_reader").set_value("endpoint").run()
        app.text_input(key="answers_base_url").set_value(server.url)
        app.text_input(key="answers_model").set_value("first-k").run()
        assert "Prompt tokens counted on the message text" in " ".join(item.value for item in app.caption)
        app.selectbox(key="answers_family").set_value("llama-3").run()
        run(app)
    counter = family_counter("llama-3")
    said = escape_markdown(f"Prompt tokens counted as the model reads them: {counter.name}")
    assert f"{said}." in [item.value for item in app.caption]
    with RunStore(tmp_path / STORE) as store:
        [stored_run] = store.runs()
        rows = store.results(stored_run["run_id"])
    assert json.loads(stored_run["settings"])["prompt_tokens_counted_by"] == counter.name
    for row in rows:
        messages = json.loads(row["raw_request"])["body"]["messages"]
        assert row["prompt_tokens_counted"] == counter.count(messages)


@pytest.mark.parametrize("widget, value, message", [
    ("answers_budgets", "512, many", "is not a whole number of tokens"),
    ("answers_budgets", "0, 512", "budget 0 keeps nothing"),  # the one budget-list grammar (core.budget.budget_list)
    ("answers_base_url", "ftp://example", "not an http"),
])
def test_bad_settings_show_a_clear_error_and_no_run_button(tmp_path, widget, value, message):
    app = page(tmp_path)
    app.radio(key="answers_reader").set_value("endpoint").run()
    app.text_input(key=widget).set_value(value).run()
    assert not app.exception and any(message in item.value for item in app.error)
    assert not [button for button in app.button if button.key == "answers_run"]


@pytest.mark.parametrize("sample", sample_names())
def test_the_page_plans_a_run_on_every_sample(sample, tmp_path):
    app = on_page(started(sample=sample), "model_answers")
    planned = [item.value for item in app.markdown if "trial(s)** for the question" in item.value]
    assert len(planned) == 1 and not app.error


def test_the_marker_line_is_on_by_default_and_counted_in_the_prompts(tmp_path):
    app = page(tmp_path, budgets="300")
    assert app.toggle(key="answers_marker").value is True
    run(app)
    with RunStore(tmp_path / STORE) as store:
        [stored_run] = store.runs()
        rows = store.results(stored_run["run_id"])
    assert rows and all(row["exact_match"] == row["traversal_accuracy"] for row in rows)
    assert "records shown" in app.code[0].value  # 300 tokens cut the sample: the model is told how much


def test_the_bundled_model_is_offered_first_and_answers_with_every_prompt_and_reply_shown(tmp_path):
    app = on_page(started(), "model_answers")
    assert app.radio(key="answers_reader").value == "bundled"
    app.multiselect(key="answers_formats").set_value(["csv"])
    app.text_input(key="answers_budgets").set_value("200").run()
    run(app)
    assert app.success and "0 failed" in app.success[0].value
    with RunStore(tmp_path / STORE) as store:
        [stored_run] = store.runs()
        rows = store.results(stored_run["run_id"])
    assert [row["model"] for row in rows] == ["smollm2-135m-instruct"]
    shown = [code.value for code in app.code]
    assert json.loads(rows[0]["raw_request"])["body"]["messages"][0]["content"] in shown  # the prompt as sent
    assert rows[0]["content"] in shown and rows[0]["content"].startswith("{")  # its reply: constrained JSON
    assert rows[0]["raw_response"] in shown
    columns = [set(frame.value.columns) for frame in app.dataframe]
    assert any({"sufficiency", "correct", "wrong", "abstained"} <= found for found in columns)
    assert any({"output_tokens", "latency_ms_median", "cached_share"} <= found for found in columns)


def test_the_run_store_is_picked_from_the_servers_folder_never_typed(tmp_path):
    (tmp_path / "older.sqlite").write_bytes(b"")
    app = on_page(started(), "model_answers")
    assert not [item for item in app.text_input if item.key == "answers_store"]
    assert app.selectbox(key="answers_store").options == [STORE, "older.sqlite"]


def test_the_budgets_start_small_for_the_bundled_model_and_follow_the_reader_until_typed():
    """A 135M model on one core reads about 38 prompt tokens a second: 8,192-token prompts made a first run take
    minutes. The bundled model starts from 128 and 512 tokens; an endpoint from the usual five budgets."""
    app = on_page(started(), "model_answers")
    budgets = app.text_input(key="answers_budgets")
    assert (app.radio(key="answers_reader").value, budgets.value) == ("bundled", "128, 512")
    app.radio(key="answers_reader").set_value("oracle").run()
    assert app.text_input(key="answers_budgets").value == "512, 1024, 2048, 4096, 8192"
    app.text_input(key="answers_budgets").set_value("300").run()
    app.radio(key="answers_reader").set_value("bundled").run()
    assert app.text_input(key="answers_budgets").value == "300"  # what the user typed stays
