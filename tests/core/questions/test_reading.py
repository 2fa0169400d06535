"""The one reader of questions: a question's text and the graph give its seeds, its query and how it was read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.graph.model import Edge, Graph, Node
from core.io.samples import load_sample
from core.questions.ckg import ckg_query
from core.questions.reading import QuestionNotRead, read_question

JETSON = load_sample("nvidia-jetson")
SERVICES = load_sample("reference-services")
JETSON_QUESTIONS = Path(__file__).parents[3] / "sample_graphs" / "nvidia-jetson" / "queries_nvidia-jetson.jsonl"


def _records() -> list[dict]:
    return [json.loads(line) for line in JETSON_QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_bundled_question_is_read_from_its_text_alone_as_its_record_means():
    records = _records()
    assert {record["type"] for record in records} == {"T1_entity", "T2_dependency", "T3_path", "T4_aggregate",
                                                      "T5_cross_concept"}
    for record in records:
        reading = read_question(JETSON, record["query"])
        assert reading.query == ckg_query(record), record["query"]


def test_the_reading_says_what_was_read_with_labels():
    reading = read_question(JETSON, "What are the prerequisites for Tensorrt?")
    assert reading.sentence(JETSON) == 'read as t2_prerequisites(concept=12 "Tensorrt"), by its wording'
    assert reading.seeds.node_ids == ("12",)


@pytest.mark.parametrize("question, label", [
    ("What must I learn before Tensorrt?", 't2_prerequisites(concept=12 "Tensorrt")'),
    ("prerequisites of Tensorrt", 't2_prerequisites(concept=12 "Tensorrt")'),
    ("Describe Tensorrt", 't1_entity(concept=12 "Tensorrt")'),
    ("Tell me about Jetson Orin", 't1_entity(concept=1 "Jetson Orin")'),
    ("How are Tensorrt and Cudnn related?", 't5_relation(first=12 "Tensorrt", second=11 "Cudnn")'),
    ("What is the relationship between Tensorrt and Cudnn?", 't5_relation(first=12 "Tensorrt", second=11 "Cudnn")'),
    ("Which concepts are of type SDK?", "t4_taxonomy_members(taxonomy=SDK)"),
    ("list every TOOL", "t4_taxonomy_members(taxonomy=TOOL)"),
    ("What is the prerequisite chain to Ota Update from Sbsa?",
     't3_prerequisite_path(concept=38 "Ota Update", start=9 "Sbsa")'),
    ("Which prerequisite path leads from Sbsa to Ota Update?",
     't3_prerequisite_path(concept=38 "Ota Update", start=9 "Sbsa")'),
])
def test_close_paraphrases_of_the_ckg_types_are_read(question, label):
    assert read_question(JETSON, question).sentence(JETSON).startswith(f"read as {label}, by its words")


@pytest.mark.parametrize("question, label", [
    ("If db-identity fails, which services break and who owns them?",
     "impact_owners(failed=db-identity, node_type=service)"),
    ("If db-identity fails, which services are affected?", "impact(failed=db-identity, node_type=service)"),
    ("Who owns svc-api?", "owners_of(nodes=svc-api)"),
    ("What is the shortest path from svc-web to db-identity?", "shortest_path(source=svc-web, target=db-identity)"),
    ("What does svc-api depend on within 2 hops?", "dependencies_within(hops=2, start=svc-api)"),
])
def test_the_service_questions_are_read(question, label):
    assert read_question(SERVICES, question).sentence(SERVICES).startswith(f"read as {label}, by its words")


def _labelled_graph() -> Graph:
    nodes = [Node("1", "CONCEPT", (("label", "Shortest Path"),)), Node("2", "CONCEPT", (("label", "Impact Analysis"),)),
             Node("3", "CONCEPT", (("label", "Graph Search"),))]
    return Graph.build(nodes, [Edge("1", "depends_on", "3"), Edge("2", "depends_on", "1")])


def test_a_whole_label_beats_a_word_inside_a_label():
    graph = _labelled_graph()
    assert read_question(graph, "What is Shortest Path?").query.name == "t1_entity"
    assert read_question(graph, "What does one learn before Impact Analysis?").query.name == "t2_prerequisites"
    assert read_question(graph, "Tell me about Impact Analysis").query.name == "t1_entity"  # "impact" is the label's


def test_a_learning_question_on_another_relation_uses_the_graph_s_relation():
    graph = Graph.build([Node("a", "T", (("label", "Algebra"),)), Node("b", "T", (("label", "Calculus"),))],
                        [Edge("b", "requires", "a")])
    reading = read_question(graph, "What are the prerequisites of Calculus?")
    assert reading.query.label == "t2_prerequisites(concept=b, relation=requires)"
    assert reading.query.solve(graph).answer == ["Algebra"]


@pytest.mark.parametrize("question, named", [
    ("Is Tensorrt good?", "it names 'Tensorrt'"),
    ("hello world", "it names no node of the graph"),
])
def test_a_question_it_cannot_read_is_refused_naming_what_was_tried(question, named):
    with pytest.raises(QuestionNotRead) as refusal:
        read_question(JETSON, question)
    message = str(refusal.value)
    assert named in message and "--query" in message and "What are the prerequisites for X?" in message


def test_an_empty_question_is_refused():
    with pytest.raises(QuestionNotRead, match="empty"):
        read_question(JETSON, "   ")
