"""The run store: one SQLite file holding runs, every request and response, and the scored result rows.

Three tables and a view:
- `runs`: one row per evaluation run (settings, the frame's version and template text, the price table).
- `answers`: one row per distinct request, keyed by the sha256 of its content (endpoint address,
  request body, trial number): the raw request and raw response, the provider's usage, latency and
  the failure reason. A request already answered is never sent again, which is how an interrupted
  sweep resumes and a finished one re-runs for free. A failed request is retried by the next run.
- `cells`: one row per (run, graph, query, format, ordering, layout, policy, budget, trial): the measured
  token counts, the context's traversal accuracy, and the answer's scores.
- `results`: cells joined with their answers, in the seed's result schema.

WAL journaling lets the dashboard read while a sweep writes; each answer is committed as it
arrives, so a crash loses at most the requests in flight. The API key is never written: raw
requests hold the URL and body only.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from core.errors import ParameterError

if TYPE_CHECKING:  # the client pulls in the openai package; reading a store does not need it
    from core.evaluate.client import Exchange

DEFAULT_PATH = Path("evaluation-runs.sqlite")
# Result rows carry the raw texts for display and export, cut to this many characters: a store written
# before replies were capped held 200 MB replies, and every summary of it ran out of memory.
LONG_TEXTS = ("content", "raw_request", "raw_response")
SHOWN_TEXT = 8_000_000
STORE_VERSION = 2  # PRAGMA user_version of the layout below; a store of another version is refused

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    frame_version TEXT NOT NULL,
    frame_template TEXT NOT NULL,
    settings TEXT NOT NULL,
    prices TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    request_key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    base_url TEXT NOT NULL,
    raw_request TEXT NOT NULL,
    raw_response TEXT NOT NULL,
    failure_reason TEXT NOT NULL,
    content TEXT,
    response_model TEXT,
    prompt_tokens_reported INTEGER,
    completion_tokens_reported INTEGER,
    latency_ms REAL NOT NULL,
    attempt_statuses TEXT NOT NULL,
    answered_at TEXT NOT NULL,
    cached_tokens_reported INTEGER
);
CREATE TABLE IF NOT EXISTS cells (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    graph_hash TEXT NOT NULL,
    query TEXT NOT NULL,
    query_key TEXT NOT NULL,
    format TEXT NOT NULL,
    ordering TEXT NOT NULL,
    layout TEXT NOT NULL,
    policy TEXT NOT NULL,
    budget_tokens INTEGER NOT NULL,
    trial INTEGER NOT NULL,
    tokenizer TEXT NOT NULL,
    context_tokens INTEGER NOT NULL,
    grammar_tokens INTEGER NOT NULL,
    frame_tokens INTEGER NOT NULL,
    prompt_tokens_counted INTEGER NOT NULL,
    traversal_accuracy REAL,
    request_key TEXT NOT NULL,
    gold TEXT NOT NULL,
    parse_success INTEGER,
    parse_error TEXT,
    exact_match INTEGER,
    affected_services_f1 REAL,
    owners_exact_match INTEGER,
    field_scores TEXT,
    answer TEXT,
    question_id TEXT NOT NULL,
    query_type TEXT NOT NULL,
    hop_depth INTEGER,
    evidence_complete INTEGER,
    PRIMARY KEY (run_id, graph_hash, query_key, format, ordering, layout, policy, budget_tokens, trial)
);
CREATE INDEX IF NOT EXISTS cells_by_request ON cells(request_key);
CREATE VIEW IF NOT EXISTS results AS
SELECT c.run_id, c.graph_hash, c.format, c.ordering, c.layout, c.policy, c.budget_tokens, c.query, c.query_key, c.trial,
       a.model, c.tokenizer, a.prompt_tokens_reported, a.completion_tokens_reported,
       c.parse_success, c.exact_match, c.affected_services_f1, c.owners_exact_match, c.field_scores,
       a.latency_ms, c.context_tokens, c.grammar_tokens, c.frame_tokens, c.prompt_tokens_counted,
       c.traversal_accuracy, a.failure_reason, c.parse_error, c.answer, c.gold, a.content,
       a.attempt_statuses, a.raw_request, a.raw_response, c.request_key, a.answered_at,
       c.question_id, c.query_type, c.hop_depth, c.evidence_complete, a.cached_tokens_reported
FROM cells c JOIN answers a ON a.request_key = c.request_key;
"""


_COLUMNS: dict[str, list[str]] = {}


def _expected_columns() -> dict[str, list[str]]:
    """Each table's columns, as the schema above creates them (read once from an in-memory database)."""
    if not _COLUMNS:
        with sqlite3.connect(":memory:") as memory:
            memory.executescript(_SCHEMA)
            for table in ("runs", "answers", "cells"):
                _COLUMNS[table] = [row[1] for row in memory.execute(f"PRAGMA table_info({table})")]
        memory.close()
    return _COLUMNS


def stored_json(text: str | None, default: object = None) -> object:
    """A JSON column's value, or the text itself when a store holds something else there (a damaged or
    foreign store must show, not crash the page)."""
    if text is None:
        return default
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def run_model(settings_text: str) -> str:
    """The model a run asked, from its stored settings ("?" when they do not say)."""
    settings = stored_json(settings_text)
    model = settings.get("model") if isinstance(settings, dict) else None
    return model if isinstance(model, str) else "?"


def sent_prompt(raw_request: str) -> str:
    """The last message of a stored request, as sent ("" when the stored request is not a chat request)."""
    request = stored_json(raw_request)
    try:
        content = request["body"]["messages"][-1]["content"]  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        return ""
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def request_key(base_url: str, body: dict, trial: int) -> str:
    """Content hash of a request: the same prompt, settings and trial number give the same key."""
    text = json.dumps({"base_url": base_url.rstrip("/"), "body": body, "trial": trial},
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def new_run_id() -> str:
    return datetime.now(UTC).strftime("run-%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:8]


@dataclass(frozen=True)
class Cell:
    """Where a result row sits in the sweep, and what its context measured."""

    run_id: str
    graph_hash: str
    query: str
    query_key: str
    format: str
    ordering: str
    layout: str
    policy: str
    budget_tokens: int
    trial: int
    tokenizer: str
    context_tokens: int
    grammar_tokens: int
    frame_tokens: int
    prompt_tokens_counted: int
    traversal_accuracy: float | None
    request_key: str
    gold: str  # JSON of the gold answer fields
    question_id: str = ""  # the question set's id, or "" for a question given on the command line
    query_type: str = ""  # the set's type label (CKG T1..T5), else the template's name
    hop_depth: int | None = None
    evidence_complete: bool | None = None  # sufficiency: did the cut keep every evidence unit of the gold answer


def check_store(path: Path | str) -> None:
    """Refuse a run-store path that cannot work (a folder, a missing folder) before any work is done."""
    path = Path(path)
    if path.is_dir():
        raise ParameterError(f"{path} is a folder, not a run store file", "--store",
                             f"give a file path, e.g. {path / 'runs.sqlite'}")
    if path.exists() and not path.is_file():  # /dev/null gave "disk I/O error" from deep inside SQLite
        raise ParameterError(f"{path} is not a regular file (a device, pipe or socket)", "--store",
                             "give the path of a run store file, or of a file that does not exist yet")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ParameterError(f"the folder {folder} of the run store does not exist", "--store",
                             f"create it first (mkdir -p {folder}) or give another path")


class RunStore:
    """One connection, used by one thread (the sweep's writer); open another RunStore to read elsewhere."""

    def __init__(self, path: Path | str = DEFAULT_PATH) -> None:
        self.path = Path(path)
        check_store(self.path)
        try:
            self.connection = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        except sqlite3.OperationalError as error:  # e.g. "unable to open database file"
            raise ParameterError(f"{self.path} cannot be opened as a run store: {error}", "store path",
                                 "give a file path in a folder that exists and can be written") from None
        self.connection.row_factory = sqlite3.Row
        try:
            self.connection.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as error:  # e.g. "file is not a database"
            self.connection.close()
            raise ParameterError(f"{self.path} cannot be used as a run store: {error}", "store path",
                                 "give the path of a run store, or of a file that does not exist yet") from None
        self.connection.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each checkpoint
        version = self.connection.execute("PRAGMA user_version").fetchone()[0]
        tables = self.connection.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        if tables and version != STORE_VERSION:
            self.connection.close()
            raise ParameterError(f"the run store has layout version {version}, not {STORE_VERSION}", str(self.path),
                                 "give a new store path (the old file stays readable by the version that wrote it)")
        if tables:
            self._check_existing()
        self.connection.executescript(_SCHEMA)
        self.connection.execute(f"PRAGMA user_version = {STORE_VERSION}")

    def _check_existing(self) -> None:
        """Before an existing store is used: SQLite's own structure check, and the tables' columns.

        A store overwritten in places still opened and took new rows without a word; one with this
        version number but other columns failed at the first insert with an SQLite message.
        """
        try:
            problems = [row[0] for row in self.connection.execute("PRAGMA quick_check(5)")]
            found = {table: [row[1] for row in self.connection.execute(f"PRAGMA table_info({table})")]
                     for table in _expected_columns()}
        except sqlite3.DatabaseError as error:  # "database disk image is malformed"
            problems, found = [str(error)], {}
        if problems != ["ok"]:
            self.connection.close()
            raise ParameterError(f"the run store is damaged: {'; '.join(problems)[:300]}", str(self.path),
                                 "give a new store path, or restore the file from a copy (sqlite3's .recover "
                                 "may save its rows)")
        wrong = [table for table, columns in _expected_columns().items() if found.get(table) != columns]
        if wrong:
            self.connection.close()
            raise ParameterError(f"the run store's tables {', '.join(wrong)} do not have this lab's columns",
                                 str(self.path), "give a new store path; this file was not written by this lab")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def add_run(self, run_id: str, frame_version: str, frame_template: str, settings: dict, prices_json: str) -> None:
        self.connection.execute(
            "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?)",
            (run_id, now(), frame_version, frame_template, json.dumps(settings, sort_keys=True), prices_json))

    def answered_keys(self, keys: set[str]) -> set[str]:
        """The keys among `keys` that already have a successful answer."""
        found: set[str] = set()
        ordered = sorted(keys)
        for start in range(0, len(ordered), 500):  # stay under SQLite's bound-parameter limit
            chunk = ordered[start:start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.connection.execute(
                f"SELECT request_key FROM answers WHERE failure_reason = '' AND request_key IN ({marks})", chunk)
            found.update(row[0] for row in rows)
        return found

    def answer(self, key: str) -> sqlite3.Row | None:
        return self.connection.execute("SELECT * FROM answers WHERE request_key = ?", (key,)).fetchone()

    def save_answer(self, key: str, model: str, base_url: str, exchange: Exchange) -> None:
        """Record an exchange; a failure never replaces an earlier success."""
        self.connection.execute(
            """INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT(request_key) DO UPDATE SET
                 raw_request=excluded.raw_request, raw_response=excluded.raw_response,
                 failure_reason=excluded.failure_reason, content=excluded.content,
                 response_model=excluded.response_model,
                 prompt_tokens_reported=excluded.prompt_tokens_reported,
                 completion_tokens_reported=excluded.completion_tokens_reported,
                 latency_ms=excluded.latency_ms, attempt_statuses=excluded.attempt_statuses,
                 answered_at=excluded.answered_at, cached_tokens_reported=excluded.cached_tokens_reported
               WHERE answers.failure_reason != ''""",
            (key, model, base_url, exchange.raw_request, exchange.raw_response, exchange.failure_reason,
             exchange.content, exchange.response_model, exchange.prompt_tokens_reported,
             exchange.completion_tokens_reported, exchange.latency_ms, json.dumps(list(exchange.attempt_statuses)),
             now(), exchange.cached_tokens_reported))

    def save_cell(self, cell: Cell, scores: dict) -> None:
        """Insert or replace a result row; `scores` holds parse_success ... answer (None when unanswered)."""
        values = (cell.run_id, cell.graph_hash, cell.query, cell.query_key, cell.format, cell.ordering, cell.layout,
                  cell.policy, cell.budget_tokens, cell.trial, cell.tokenizer, cell.context_tokens, cell.grammar_tokens,
                  cell.frame_tokens, cell.prompt_tokens_counted, cell.traversal_accuracy, cell.request_key, cell.gold,
                  scores.get("parse_success"), scores.get("parse_error"), scores.get("exact_match"),
                  scores.get("affected_services_f1"), scores.get("owners_exact_match"),
                  scores.get("field_scores"), scores.get("answer"), cell.question_id, cell.query_type, cell.hop_depth,
                  None if cell.evidence_complete is None else int(cell.evidence_complete))
        self.connection.execute(f"INSERT OR REPLACE INTO cells VALUES ({','.join('?' * len(values))})", values)

    def runs(self) -> list[sqlite3.Row]:
        return self.connection.execute("SELECT * FROM runs ORDER BY created_at").fetchall()

    def run(self, run_id: str) -> sqlite3.Row | None:
        return self.connection.execute("SELECT * FROM runs WHERE run_id = ?", (run_id,)).fetchone()

    def results(self, run_id: str | None = None) -> list[dict]:
        """Result rows (the seed's schema and more), of one run or of all."""
        columns = [row[1] for row in self.connection.execute("PRAGMA table_info(results)")]
        shown = ", ".join(f"substr({name}, 1, {SHOWN_TEXT}) AS {name}" if name in LONG_TEXTS else name
                          for name in columns)
        query = f"SELECT {shown} FROM results" + (" WHERE run_id = ?" if run_id else "")
        query += " ORDER BY run_id, format, ordering, layout, policy, budget_tokens, query_key, trial"
        rows = self.connection.execute(query, (run_id,) if run_id else ())
        return [dict(row) for row in rows]

    def count_answers(self) -> int:
        return self.connection.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
