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
