"""Free-text questions in the own schema: a record with only its text is read by the one reader of questions,
on the graph; without the graph, or when the reader cannot read it, its line is refused with the reason."""

from __future__ import annotations

import json

import pytest

from core.errors import LoadError
from core.io.samples import get_sample
from core.questions import parse_questions_csv, parse_questions_jsonl, questions_jsonl
from core.questions.own_schema import READ_AS

GRAPH = get_sample("nvidia-jetson").load()
# text -> the query its words mean on nvidia-jetson (Jetson Orin is concept 1, Tensorrt concept 12)
FREE = {
    "What is Tensorrt?": "t1_entity(concept=12)",
    "What are the prerequisites for Tensorrt?": "t2_prerequisites(concept=12)",
    "What is the prerequisite chain from Jetson Orin to Tensorrt?": "t3_prerequisite_path(concept=12, start=1)",
    "List all SDK concepts": "t4_taxonomy_members(taxonomy=SDK)",
    "How does Jetson Orin relate to Tensorrt?": "t5_relation(first=1, second=12)",
}


def free_jsonl(texts=FREE) -> str:
    return "".join(json.dumps({"question": text}) + "\n" for text in texts)


def test_free_text_records_load_on_the_graph_with_the_queries_their_words_mean():
    questions = parse_questions_jsonl(free_jsonl(), graph=GRAPH)
    assert [question.query.label for question in questions] == list(FREE.values())
    assert [question.text for question in questions] == list(FREE)  # each record keeps its text
    first = dict(questions.questions[0].metadata)[READ_AS]
    assert first == 'read as t1_entity(concept=12 "Tensorrt"), by its wording'
    assert [question.id for question in questions] == [f"line-{number}" for number in range(1, 6)]


def test_a_free_text_set_round_trips_with_its_queries_written_out():
    questions = parse_questions_jsonl(free_jsonl(), graph=GRAPH)
    assert parse_questions_jsonl(questions_jsonl(questions)).questions == questions.questions  # no graph needed now


def test_free_text_and_bound_records_mix_and_csv_needs_no_query_column():
    bound = json.dumps({"id": "b", "question": "Anything", "query": "t2_prerequisites",
                        "parameters": {"concept": "12"}})
    mixed = parse_questions_jsonl(free_jsonl(["What is Tensorrt?"]) + bound + "\n", graph=GRAPH)
    assert [question.query.label for question in mixed] == ["t1_entity(concept=12)", "t2_prerequisites(concept=12)"]
    assert READ_AS not in dict(mixed.questions[1].metadata)
    csv = parse_questions_csv("id,question,type\nq1,What are the prerequisites for Tensorrt?,T2\n", graph=GRAPH)
    assert csv.questions[0].query.label == "t2_prerequisites(concept=12)" and csv.questions[0].query_type == "T2"
    empty_cell = parse_questions_csv("question,query,parameters\nWhat is Tensorrt?,,\n", graph=GRAPH)
    assert empty_cell.questions[0].query.label == "t1_entity(concept=12)"


def test_without_the_graph_a_free_text_record_says_it_needs_the_graph():
    with pytest.raises(LoadError, match=r"line 1: no 'query': a question given by its text alone needs the graph "
                                        r"to be read"):
        parse_questions_jsonl(free_jsonl(["What is Tensorrt?"]))


def test_a_text_the_reader_cannot_read_is_refused_naming_its_line_and_the_readers_reason():
    text = free_jsonl(["What is Tensorrt?", "Frobnicate the widgets"])
    with pytest.raises(LoadError) as raised:
        parse_questions_jsonl(text, graph=GRAPH)
    message = str(raised.value)
    assert "1 bad line(s)" in message and "line 2: no 'query', and the reader of questions could not read its text" \
        in message
    assert "it names no node of the graph" in message and "What are the prerequisites for X?" in message


def test_parameters_without_a_query_are_refused():
    line = json.dumps({"question": "What is Tensorrt?", "parameters": {"concept": "12"}})
    with pytest.raises(LoadError, match="line 1: 'parameters' are given without a 'query'"):
        parse_questions_jsonl(line + "\n", graph=GRAPH)
