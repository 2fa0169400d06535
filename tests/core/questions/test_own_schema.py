"""The project's own JSONL and CSV question files: a good file round-trips; each bad line says what and where."""

from __future__ import annotations

import json

import pytest

from core.errors import LoadError
from core.io.samples import SAMPLES_DIRECTORY, get_sample, load_sample
from core.questions import (
    load_questions,
    parse_question_file,
    parse_questions_csv,
    parse_questions_jsonl,
    questions_csv,
    questions_jsonl,
)

EXAMPLE = SAMPLES_DIRECTORY / "questions-reference-services.jsonl"
SERVICES = load_sample("reference-services")


def test_the_example_file_loads_against_its_graph():
    questions = load_questions(EXAMPLE, SERVICES)
    assert len(questions) >= 5 and questions.source == "jsonl"
    first = questions.questions[0]
    assert first.query.name == "impact" and first.annotation_seeds == ("db-identity",)
    assert first.ground_truth == first.query.solve(SERVICES).answer  # the example records true answers


@pytest.mark.parametrize("questions", [load_questions(EXAMPLE, SERVICES),
                                       load_questions(get_sample("nvidia-jetson").queries_path)])
def test_jsonl_and_csv_round_trip(questions):
    assert parse_questions_jsonl(questions_jsonl(questions)).questions == questions.questions
    assert parse_questions_csv(questions_csv(questions)).questions == questions.questions


def test_a_csv_file_is_read_by_its_extension():
    questions = load_questions(EXAMPLE, SERVICES)
    assert parse_question_file(questions_csv(questions).encode(), "mine.csv").questions == questions.questions


GOOD = {"id": "q1", "question": "If db-identity fails, what breaks?", "query": "impact",
        "parameters": {"failed": "db-identity"}}


@pytest.mark.parametrize("line, message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "a JSON object {...} was expected, not list"),
    (json.dumps({**GOOD, "question": ""}), "'question' is missing or not a non-empty text"),
    (json.dumps({**GOOD, "query": "teleport"}), "unknown query template 'teleport'"),
    (json.dumps({**GOOD, "parameters": ["db-identity"]}), "'parameters' must be a JSON object"),
    (json.dumps({**GOOD, "parameters": {"broken": "x"}}), "impact has no parameter(s) 'broken'"),
    (json.dumps({**GOOD, "parameters": {}}), "impact needs the parameter(s) 'failed'"),
    (json.dumps({**GOOD, "query": "dependencies_within", "parameters": {"start": "svc-api", "hops": "three"}}),
     "parameter 'hops' must be a whole number"),
    (json.dumps({**GOOD, "parameters": {"failed": "db-nowhere"}}), "node(s) 'db-nowhere' are not in the graph"),
    (json.dumps({**GOOD, "hop_depth": 1.5}), "'hop_depth' must be a whole number"),
    (json.dumps({**GOOD, "id": "q0"}), "id 'q0' was already used on line 1"),
    # D11: a lone surrogate escape passed parsing and crashed the suite's frame (and the upload page).
    ('{"id":"q\\ud800","question":"If db-identity fails \\udfff?","query":"impact","parameters":{"failed":'
     '"db-identity"}}', "holds a lone surrogate escape"),
    # D12: integers of more than 4,300 digits raised ValueError out of json.loads.
    (json.dumps({**GOOD})[:-1] + ', "hop_depth": ' + "9" * 5000 + "}", "holds a number too long to read"),
    ('{"question": "q", "query": "dependencies_within", "parameters": {"start": "svc-api", "hops": ' + "9" * 5000
     + "}}", "holds a number too long to read"),
    # D13: hop_depth of 2**63 and more overflowed pandas' Int64 column in the suite.
    (json.dumps({**GOOD, "hop_depth": 10**40}), "'hop_depth' must be a whole number from 0 to 1,000,000"),
    (json.dumps({**GOOD, "hop_depth": "1" * 5000}), "'hop_depth' must be a whole number from 0 to 1,000,000"),
    # D18: values that changed the meaning were accepted and scored 100%.
    (json.dumps({**GOOD, "hop_depth": -1}), "'hop_depth' must be a whole number from 0 to 1,000,000, not -1"),
    (json.dumps({**GOOD, "query": "dependencies_within", "parameters": {"start": "svc-api", "hops": -5}}),
     "'hops' must be a whole number from 0 to 1,000,000, not -5"),
    (json.dumps({**GOOD, "parameters": {"failed": "db-identity", "relation": "teleports_to"}}),
     "relation 'teleports_to' (relation) is not in the graph"),
    (json.dumps({**GOOD, "parameters": {"failed": "db-identity", "node_type": "spaceship"}}),
     "node type 'spaceship' (node_type) is not in the graph"),
    (json.dumps({**GOOD, "query": "owners_of", "parameters": {"nodes": []}}), "parameter 'nodes' names no node"),
])
def test_each_kind_of_bad_line_gives_its_message_and_line_number(line, message):
    text = json.dumps({**GOOD, "id": "q0"}) + "\n" + line + "\n" + json.dumps({**GOOD, "id": "q2"}) + "\n"
    with pytest.raises(LoadError) as raised:
        parse_questions_jsonl(text, graph=SERVICES)
    assert f"line 2: {message}" in str(raised.value)
    assert "1 bad line(s), so none of the file was used" in str(raised.value)


def test_every_bad_line_is_listed_at_once():
    text = "\n".join(["{bad", json.dumps(GOOD), "[]"])
    with pytest.raises(LoadError, match=r"2 bad line\(s\).*line 1: not valid JSON.*line 3: a JSON object"):
        parse_questions_jsonl(text)


@pytest.mark.parametrize("row, message", [
    ('q1,What breaks?,impact,{"failed": db-identity}', "line 2: the 'parameters' cell is not valid JSON"),
    ("q1,What breaks?,impact", "line 2: 3 cells where the header has 4"),
])
def test_bad_csv_rows_name_their_line(row, message):
    text = "id,question,query,parameters\n" + row + "\n"
    with pytest.raises(LoadError, match=message):
        parse_questions_csv(text)


def test_a_csv_without_the_required_columns_is_refused_at_line_1():
    with pytest.raises(LoadError, match=r"must name the column 'question'.*line 1"):
        parse_questions_csv("text,template\nWhat?,impact\n")


def test_an_empty_file_and_a_non_utf8_file_are_refused():
    with pytest.raises(LoadError, match="holds no question"):
        parse_questions_jsonl("\n\n")
    with pytest.raises(LoadError, match=r"not UTF-8.*line 2"):
        parse_questions_jsonl(b'{"a": 1}\n\xff\xfe')


def test_a_csv_header_naming_a_column_twice_is_refused():
    """D18: with two 'question' columns the last one silently won."""
    text = "id,question,query,parameters,question\nq1,If db-identity fails?,impact,\"{\"\"failed\"\": \"\"db-identity\"\"}\",other\n"
    with pytest.raises(LoadError, match="names 'question' more than once"):
        parse_questions_csv(text, graph=SERVICES)


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_a_device_or_fifo_is_refused_as_a_question_file(special, tmp_path):
    """D5: /dev/zero ran out of memory and a FIFO waited for a writer forever."""
    import os

    path = special
    if special == "fifo":
        path = tmp_path / "questions.jsonl"
        os.mkfifo(path)
    with pytest.raises(LoadError, match="not a question file"):
        load_questions(path, SERVICES)
