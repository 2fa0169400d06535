"""Queries: binding parameters (by name or from seeds), question texts, labels and defaults."""

from __future__ import annotations

import pytest

from core.errors import ParameterError
from core.graph.model import Graph, Node
from core.queries import (
    DEPENDENCIES,
    IMPACT_OWNERS,
    OWNERS,
    QUERIES,
    SHORTEST_PATH,
    TEMPLATES,
    QueryTemplate,
    query,
    query_from_seeds,
)


def test_every_template_is_registered_and_has_a_question_over_its_parameters():
    assert QUERIES.names() == [template.name for template in TEMPLATES]
    for template in TEMPLATES:
        placeholders = {name for name in template.parameters if "{" + name + "}" in template.question}
        assert placeholders, template.name
        assert set(template.node_parameters) <= set(template.parameters)


def test_defaults_fill_the_question():
    assert query(DEPENDENCIES, start="svc-api").question == \
        "Which nodes does svc-api reach over depends_on edges in at most 3 hops?"


def test_unknown_parameters_are_refused():
    with pytest.raises(ParameterError):
        query(DEPENDENCIES, begin="svc-api")


def test_seeds_fill_node_parameters_in_order_and_explicit_arguments_win():
    assert query_from_seeds(SHORTEST_PATH, ["a", "b"]) == query(SHORTEST_PATH, source="a", target="b")
    assert query_from_seeds(SHORTEST_PATH, ["b"], source="a") == query(SHORTEST_PATH, source="a", target="b")
    assert query_from_seeds(OWNERS, ["a", "b", "c"]) == query(OWNERS, nodes=("a", "b", "c"))
    assert query_from_seeds(IMPACT_OWNERS, ["db-identity"]).seeds == ("db-identity",)
    with pytest.raises(ParameterError) as raised:
        query_from_seeds(SHORTEST_PATH, ["a"])
    assert "seeds ran out" in str(raised.value)


def test_natural_questions_use_labels_and_labels_identify_queries():
    graph = Graph.build([Node("1", "t", (("label", "Alpha"),)), Node("2", "t")], [])
    bound = query(SHORTEST_PATH, source="1", target="2")
    assert bound.question_on(graph) == "What is the shortest directed path from Alpha to 2?"
    assert bound.label == "shortest_path(source=1, target=2)"


def test_every_template_declares_what_each_parameter_holds():
    kinds = {name: {parameter: QUERIES.get(name).parameter_kind(parameter) for parameter in QUERIES.get(name).parameters}
             for name in QUERIES}
    assert kinds["impact"] == {"failed": "node", "node_type": "type", "relation": "relation"}
    assert kinds["owners_of"] == {"nodes": "nodes", "relation": "relation"}
    assert kinds["dependencies_within"]["hops"] == "number"
    assert kinds["typed_neighbours"]["direction"] == "text" and kinds["t4_taxonomy_members"] == {"taxonomy": "text"}
    for template in TEMPLATES:  # a relation or a type is declared, never guessed from the name
        for parameter in template.parameters:
            if parameter.endswith("relation"):
                assert kinds[template.name][parameter] == "relation", (template.name, parameter)
            if parameter.endswith("type"):
                assert kinds[template.name][parameter] == "type", (template.name, parameter)


def test_a_template_declaring_a_kind_for_a_missing_parameter_is_refused():
    with pytest.raises(ValueError, match=r"relation_parameters|distinct"):
        QueryTemplate("broken", "Broken", DEPENDENCIES.solve, "{start}", ("start",), node_parameters=("start",),
                      relation_parameters=("relation",))
    with pytest.raises(ParameterError):
        DEPENDENCIES.parameter_kind("begin")


def test_a_caption_names_a_labelled_node_by_label_and_id():
    graph = Graph.build([Node("12", "t", (("label", "TensorRT"),)), Node("2", "t")], [])
    bound = query(SHORTEST_PATH, source="12", target="2")
    assert bound.question_shown(graph) == "What is the shortest directed path from TensorRT (node 12) to 2?"
    assert bound.question_on(graph) == "What is the shortest directed path from TensorRT to 2?"


def test_a_blank_name_never_leaves_an_empty_slot():
    graph = Graph.build([Node("", "t"), Node("a", "t", (("label", " "),)), Node("   ", "t")], [])
    assert query(SHORTEST_PATH, source="", target="a").question_shown(graph) == \
        "What is the shortest directed path from the node with the empty id to a?"
    assert query(SHORTEST_PATH, source="   ", target="a").question_on(graph) == \
        "What is the shortest directed path from the node with the id '   ' to a?"
    taxonomy = QUERIES.get("t4_taxonomy_members")
    assert query(taxonomy, taxonomy="").question_shown(graph) == \
        "List all (no taxonomy given) concepts in this knowledge graph"


def test_one_hop_is_worded_in_the_singular_and_more_in_the_plural():
    graph = Graph.build([Node("svc-api", "SERVICE", {"label": "API"})], [])
    one = query(DEPENDENCIES, start="svc-api", hops=1)
    three = query(DEPENDENCIES, start="svc-api", hops=3)
    assert "in at most 1 hop?" in one.question
    assert "in at most 1 hop?" in one.question_on(graph)
    assert "in at most 1 hop?" in one.question_shown(graph)
    assert "in at most 3 hops?" in three.question
