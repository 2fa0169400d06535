"""Question sets through a reader: `evaluate --questions / --generate`, labelled rows, aggregates by type and hop
depth, sufficiency crossed with correct / wrong / abstained, and the answer schema as constrained output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from core.analysis.answer_summary import context_rot, exact_match_by, outcome, output_and_latency, sufficiency
from core.evaluate.client import Endpoint
from core.evaluate.store import RunStore
from core.io.samples import load_sample
from core.prompt.answers import _SCHEMAS, schema_for
from core.prompt.pricing import PriceTable
from core.queries import QUERIES
from core.questions import load_questions

ROOT = Path(__file__).resolve().parents[3]
CKG = ROOT / "sample_graphs" / "nvidia-jetson" / "queries_nvidia-jetson.jsonl"


def evaluate(url: str, store: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "core.cli", "evaluate", "--base-url", url, "--store", str(store),
                           "--formats", "jsonl,csv", "--budgets", "200,4000", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_a_ckg_question_file_runs_end_to_end_and_a_rerun_sends_nothing(server, tmp_path):
    subset = tmp_path / "questions.jsonl"
    lines = CKG.read_text().splitlines()
    subset.write_text("\n".join(lines[:3] + lines[60:62] + lines[120:122]) + "\n")  # T1 .. T5 records
    store = tmp_path / "runs.sqlite"
    first = evaluate(server.url, store, "--graph", "nvidia-jetson", "--questions", str(subset))
    assert first.returncode == 0, first.stderr
    sent = server.requests_received
    second = evaluate(server.url, store, "--graph", "nvidia-jetson", "--questions", str(subset))
    assert second.returncode == 0 and server.requests_received == sent  # every answer came from the store
    assert "exact match by query type:" in first.stdout and "answers by sufficiency" in first.stdout
    with RunStore(store) as runs:
        rows = runs.results()
    questions = load_questions(subset, load_sample("nvidia-jetson"))
    assert {row["question_id"] for row in rows} == {question.id for question in questions}
    assert {row["query_type"] for row in rows} == {question.type_label for question in questions}
    for row in rows:
        assert row["failure_reason"] == ""
        assert row["exact_match"] == row["traversal_accuracy"]  # the oracle reads exactly what survived
        if row["evidence_complete"]:
            assert outcome(row) == "correct"  # with the whole evidence the oracle is always right
        body = json.loads(row["raw_request"])["body"]
        assert body["response_format"]["json_schema"]["schema"]["required"]  # the schema travels with the request


def test_generated_questions_carry_hop_depth_and_the_seeding_is_recorded(server, tmp_path):
    store = tmp_path / "runs.sqlite"
    done = evaluate(server.url, store, "--generate", "dependencies_within:count=3,seed=1", "--seeding", "text")
    assert done.returncode == 0, done.stderr
    with RunStore(store) as runs:
        [run] = runs.runs()
        rows = runs.results()
    settings = json.loads(run["settings"])
    assert settings["seeding"] == "text" and settings["answer_format"] == "json_schema" and settings["seed"] == 0
    assert len({row["question_id"] for row in rows}) == 3 and all(row["hop_depth"] is not None for row in rows)
    assert "exact match by hop depth:" in done.stdout


def test_a_question_set_refuses_query_options(tmp_path):
    done = evaluate("http://127.0.0.1:9/v1", tmp_path / "runs.sqlite", "--generate", "impact:count=2",
                    "--query", "impact")
    assert done.returncode == 2 and "a question set brings its own queries and seeds" in done.stderr


@pytest.mark.parametrize("name", sorted(_SCHEMAS))
def test_every_answer_schema_accepts_its_gold_answers_and_refuses_a_wrong_shape(name):
    schema = _SCHEMAS[name]
    constrained = schema.json_schema()
    example = {field.name: field.example for field in schema.fields}
    jsonschema.validate(example, constrained)  # the prompt's example obeys the constraint
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**example, "extra": 1}, constrained)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({field.name: 7 for field in schema.fields}, constrained)
    assert name in QUERIES.names()


def test_the_reference_answers_validate_against_their_schema():
    graph = load_sample("reference-services")
    for question in load_questions(ROOT / "sample_graphs" / "questions-reference-services.jsonl", graph):
        answer = question.query.solve(graph).answer
        schema = schema_for(question.query.name, answer)
        jsonschema.validate(schema.fields_of(answer), schema.json_schema())


def test_constrained_output_is_a_request_field_and_free_output_has_none():
    messages = [{"role": "user", "content": "Which?"}]
    schema = {"type": "object"}
    constrained = Endpoint("http://127.0.0.1:1/v1", "m").request_body(messages, schema)
    free = Endpoint("http://127.0.0.1:1/v1", "m", answer_format="free").request_body(messages, schema)
    assert constrained["response_format"] == {"type": "json_schema",
                                              "json_schema": {"name": "answer", "strict": True, "schema": schema}}
    assert "response_format" not in free


def row(exact: int, answer: dict | None, complete: bool | None = True, **more) -> dict:
    return {"model": "m", "format": "csv", "failure_reason": "", "exact_match": exact, "parse_success": int(answer is not None),
            "answer": json.dumps(answer) if answer is not None else None, "evidence_complete": complete,
            "prompt_tokens_counted": 100, "prompt_tokens_reported": 100, "completion_tokens_reported": 10,
            "cached_tokens_reported": 40, "latency_ms": 50.0, "query_type": "t", "hop_depth": 1, **more}


def test_outcomes_are_correct_wrong_or_abstained():
    assert outcome(row(1, {"owners": {}})) == "correct"  # "none" was the gold answer
    assert outcome(row(0, {"owners": {"a": ["b"]}})) == "wrong"
    assert outcome(row(0, {"owners": {}, "label": None})) == "abstained"
    assert outcome(row(0, None)) == "abstained"  # no JSON answer at all


def test_sufficiency_crosses_the_evidence_with_the_outcome():
    rows = [row(1, {"x": ["a"]}), row(0, {"x": ["b"]}, complete=False), row(0, {"x": []}, complete=False),
            row(0, {"x": ["c"]}, complete=False), {**row(0, None), "failure_reason": "timeout"}]
    table = sufficiency(rows)
    cut = table[table["sufficiency"] == "evidence cut"].iloc[0]
    complete = table[table["sufficiency"] == "evidence complete"].iloc[0]
    assert (cut["answers"], cut["correct"], cut["wrong"], cut["abstained"]) == (3, 0, 2, 1)  # failures left out
    assert (complete["answers"], complete["correct"]) == (1, 1) and cut["wrong_share"] == pytest.approx(2 / 3)


def test_exact_match_by_type_has_wilson_intervals_and_lengths_are_binned():
    rows = [row(1, {"x": []}, query_type="a"), row(0, {"x": ["b"]}, query_type="a"), row(1, {"x": []}, query_type="b")]
    table = exact_match_by(rows, ("query_type",))
    first = table.iloc[0]
    assert (first["answers"], first["exact"], first["exact_match"]) == (2, 1, 0.5)
    assert 0 < first["exact_match_low"] < 0.5 < first["exact_match_high"] < 1
    lengths = [row(1, {"x": []}, prompt_tokens_counted=count) for count in (100, 200, 400, 3200)]
    rot = context_rot(lengths, bins=3)
    assert list(rot["context_length"]) == [100, 317, 3200]  # edges 100 x 32^(k/3) and list(rot["answers"]) == [2, 1, 1]
    costs = output_and_latency(rows, PriceTable(1.0, 2.0))
    assert costs.iloc[0]["total_tokens"] == 110 and costs.iloc[0]["cached_share"] == pytest.approx(0.4)
    assert costs.iloc[0]["cost_per_answer"] == pytest.approx((100 * 1 + 10 * 2) / 1e6)
