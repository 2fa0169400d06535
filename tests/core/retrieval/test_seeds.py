"""Seeds: picked by id, or matched by name in a question (whole words, any case, longest first)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ParameterError
from core.graph.model import Graph, Node
from core.io.generate import service_graph
from core.io.samples import load_sample
from core.queries import label_of
from core.retrieval.seeds import seeds_from_ids, seeds_from_question
from tests.strategies import graphs

SERVICES = service_graph(10, 10, 7)


def labelled(*nodes: tuple[str, str]) -> Graph:
    return Graph.build([Node(node_id, "concept", (("label", label),)) for node_id, label in nodes], [])


def test_the_reference_question_finds_its_database():
    seeds = seeds_from_question(SERVICES, "If db-identity fails, which services are affected?")
    assert seeds.node_ids == ("db-identity",)
    (match,) = seeds.matches
    assert (match.text, match.start, match.end, match.matched_by) == ("db-identity", 3, 14, "id")
    assert "'db-identity' -> node 'db-identity' (by id)" in seeds.describe()


def test_matching_ignores_case_and_reports_the_text_as_written():
    seeds = seeds_from_question(SERVICES, "What breaks when SVC-AUTH goes down?")
    assert seeds.node_ids == ("svc-auth",) and seeds.matches[0].text == "SVC-AUTH"


def test_labels_match_and_seeds_keep_the_question_order():
    graph = labelled(("9", "Sbsa"), ("38", "Ota Update"))
    seeds = seeds_from_question(graph, "What is the prerequisite chain from Sbsa to Ota Update?")
    assert seeds.node_ids == ("9", "38")
    assert [(match.text, match.matched_by) for match in seeds.matches] == [("Sbsa", "label"), ("Ota Update", "label")]


def test_the_longest_name_wins_an_overlap():
    graph = labelled(("1", "Jetson"), ("2", "Jetson Orin"))
    assert seeds_from_question(graph, "Tell me about Jetson Orin.").node_ids == ("2",)
    assert seeds_from_question(graph, "Jetson Orin or Jetson?").node_ids == ("2", "1")


def test_only_whole_words_match():
    graph = labelled(("1", "api"), ("2", "web"))
    assert seeds_from_question(graph, "the web's rapid growth").node_ids == ("2",)  # not "rAPId"
    with pytest.raises(ParameterError):
        seeds_from_question(graph, "webapi and apis")


def test_equally_long_names_go_to_the_smallest_id_and_the_others_are_reported():
    graph = labelled(("b", "Cache"), ("a", "Cache"))
    (match,) = seeds_from_question(graph, "Is the cache warm?").matches
    assert match.node_id == "a" and match.others == ("b",)
    assert "also the name of 'b'" in seeds_from_question(graph, "Is the cache warm?").describe()


def test_a_question_that_names_nothing_gives_a_clear_message():
    with pytest.raises(ParameterError) as raised:
        seeds_from_question(SERVICES, "What is the meaning of life?")
    assert "names no node" in str(raised.value) and "pick seeds by id" in str(raised.value)


def test_seeds_by_id_are_checked_and_suggest_close_ids():
    assert seeds_from_ids(SERVICES, ["svc-api", "svc-web", "svc-api"]).node_ids == ("svc-api", "svc-web")
    with pytest.raises(ParameterError) as raised:
        seeds_from_ids(SERVICES, ["svc-apx"])
    assert "did you mean 'svc-api'" in str(raised.value)
    with pytest.raises(ParameterError):
        seeds_from_ids(SERVICES, [])


def test_characters_that_grow_when_lower_cased_keep_positions_right():
    graph = labelled(("1", "İstanbul"))
    question = "Flights from İstanbul today"
    (match,) = seeds_from_question(graph, question).matches
    assert question[match.start:match.end] == "İstanbul"


@given(graph=graphs(with_properties=False), data=st.data())
def test_a_question_holding_a_node_id_as_a_word_finds_a_node_spelled_that_way(graph, data):
    node = data.draw(st.sampled_from(graph.nodes))
    question = f"what about {node.id} here"
    try:
        seeds = seeds_from_question(graph, question)
    except ParameterError:
        return  # an id that is blank or glued to the surrounding words cannot match as a whole word
    for match in seeds.matches:
        assert question[match.start:match.end].lower() in {other.id.lower() for other in graph.nodes}
    assert seeds_from_question(graph, question) == seeds  # deterministic


def test_a_hop_count_in_the_question_is_not_read_as_a_node_id():
    graph = load_sample("nvidia-jetson")  # it has nodes "3" and "12"
    label = label_of(graph, "12")
    for question in (f"Which nodes does {label} reach over depends_on edges in at most 3 hops?",
                     "Which nodes does 12 reach within 3 hops?", "What does 12 need, 3-hop, depth 3?"):
        assert seeds_from_question(graph, question).node_ids == ("12",), question
    # the same digits anywhere else still name node 3
    assert seeds_from_question(graph, "Which nodes does 3 reach in at most 2 hops?").node_ids == ("3",)


def test_a_longer_name_around_a_hop_count_still_matches():
    graph = Graph.build([Node("3", "t"), Node("x", "t", (("label", "Level 3 hops"),))], [])
    assert seeds_from_question(graph, "Tell me about level 3 hops").node_ids == ("x",)
