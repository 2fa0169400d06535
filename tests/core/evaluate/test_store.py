"""The run store: content-hash keys, a success never overwritten by a failure, refusal of foreign files."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from core.errors import ParameterError
from core.evaluate.client import Exchange
from core.evaluate.store import STORE_VERSION, RunStore, request_key

BODY = {"model": "m", "messages": [{"role": "user", "content": "q"}], "temperature": 0.0, "max_tokens": 8}


def exchange(reason: str = "", content: str | None = "{}") -> Exchange:
    return Exchange('{"body": {}}', "{}", reason, None if reason else content, "m", 3 if not reason else None,
                    1 if not reason else None, 12.5, ("200",))


def test_request_keys_hash_the_content_and_the_trial():
    assert request_key("http://h/v1", BODY, 0) == request_key("http://h/v1/", dict(BODY), 0)
    assert request_key("http://h/v1", BODY, 0) != request_key("http://h/v1", BODY, 1)
    assert request_key("http://h/v1", BODY, 0) != request_key("http://h/v1", {**BODY, "temperature": 0.5}, 0)
    assert request_key("http://h/v1", BODY, 0) != request_key("http://other/v1", BODY, 0)


def test_a_failure_never_replaces_a_success_but_a_success_replaces_a_failure(tmp_path):
    with RunStore(tmp_path / "runs.sqlite") as store:
        store.save_answer("k", "m", "http://h/v1", exchange("HTTP 500: boom"))
        assert store.answered_keys({"k"}) == set()
        store.save_answer("k", "m", "http://h/v1", exchange())
        store.save_answer("k", "m", "http://h/v1", exchange("timeout after 1 s"))
        assert store.answered_keys({"k", "other"}) == {"k"} and store.answer("k")["failure_reason"] == ""


def test_the_store_uses_wal_and_records_its_layout_version(tmp_path):
    path = tmp_path / "runs.sqlite"
    RunStore(path).close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION


def test_a_reader_sees_answers_while_another_connection_writes(tmp_path):
    path = tmp_path / "runs.sqlite"
    reader = RunStore(path)
    seen = []

    def write():  # the writer's connection lives in its own thread, as a sweep's does
        with RunStore(path) as writer:
            for index in range(50):
                writer.save_answer(f"k{index}", "m", "http://h/v1", exchange())

    thread = threading.Thread(target=write)
    thread.start()
    while thread.is_alive():
        seen.append(reader.count_answers())
    thread.join()
    assert reader.count_answers() == 50 and seen == sorted(seen)
    reader.close()


def test_foreign_and_outdated_files_are_refused_with_a_fix(tmp_path):
    foreign = tmp_path / "notes.sqlite"
    foreign.write_text("these are notes, not a database " * 100)
    with pytest.raises(ParameterError, match="cannot be used as a run store"):
        RunStore(foreign)
    outdated = tmp_path / "old.sqlite"
    with sqlite3.connect(outdated) as connection:
        connection.execute("CREATE TABLE runs (run_id TEXT)")
    with pytest.raises(ParameterError, match="layout version 0"):
        RunStore(outdated)


def test_a_store_of_this_version_with_other_tables_is_refused():
    """D14: user_version 1 with a one-column runs table failed at the first insert with SQLite's words."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "other.sqlite"
        with sqlite3.connect(path) as connection:
            connection.execute("CREATE TABLE runs (run_id TEXT)")
            connection.execute(f"PRAGMA user_version = {STORE_VERSION}")
        connection.close()
        with pytest.raises(ParameterError, match="tables runs, answers, cells do not have this lab's columns"):
            RunStore(path)


def test_a_device_as_the_store_is_refused():
    """D14: --store /dev/null gave "disk I/O error" from SQLite."""
    with pytest.raises(ParameterError, match="not a regular file"):
        RunStore("/dev/null")


def test_a_damaged_store_is_refused_before_use(tmp_path):
    """D25: a store with 200 bytes overwritten in every page opened, and took new rows, without a word."""
    path = tmp_path / "runs.sqlite"
    with RunStore(path) as store:
        for number in range(300):
            store.save_answer(f"k{number:04d}", "m", "http://x", exchange(content="x" * 300))
        store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    for start in range(page, len(data), page):  # every page but the first (the header stays readable)
        data[start + 100:start + 300] = bytes(range(200))
    path.write_bytes(bytes(data))
    with pytest.raises(ParameterError, match="the run store is damaged"):
        RunStore(path)


def test_stored_json_of_a_foreign_store_is_shown_as_text_not_raised():
    """D14: a store whose runs.settings was not JSON raised JSONDecodeError on the Model answers page."""
    from core.evaluate.store import run_model, sent_prompt, stored_json

    assert stored_json("not json") == "not json" and stored_json('{"a": 1}') == {"a": 1}
    assert run_model("not json") == "?" and run_model('{"model": "m"}') == "m"
    assert sent_prompt('{"body": {"messages": [{"content": "hi"}]}}') == "hi" and sent_prompt("[]") == ""


def test_result_rows_cut_the_raw_texts_of_a_store_written_before_replies_were_capped(tmp_path, monkeypatch):
    """D6: a store holding 200 MB replies made every summary run out of memory; rows now carry a bounded cut."""
    from core.evaluate import store as store_module
    from core.evaluate.store import Cell

    monkeypatch.setattr(store_module, "SHOWN_TEXT", 1_000)
    with RunStore(tmp_path / "runs.sqlite") as store:
        store.add_run("r", "v1", "t", {"model": "m"}, "{}")
        store.save_answer("k", "m", "http://x", exchange(content="x" * 50_000))
        store.save_cell(Cell("r", "g", "q", "qk", "csv", "canonical", "nodes_then_edges", "record", 512, 0,
                             "o200k_base", 1, 1, 1, 1, 1.0, "k", "[]"), {})
        [row] = store.results("r")
    assert len(row["content"]) == 1_000 and row["format"] == "csv"
