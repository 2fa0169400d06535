"""The CKG learning-graph reader: the real nvidia-jetson file and every way a row can be wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import LoadError
from core.io.learning_graph import parse_learning_graph, read_learning_graph

JETSON = Path("/work/shared/real_graphs/learning-graphs/nvidia-jetson/learning-graph.csv")
HEADER = b"ConceptID,ConceptLabel,Dependencies,TaxonomyID\n"


@pytest.fixture(scope="module")
def jetson():
    return read_learning_graph(JETSON)


def test_jetson_counts(jetson):
    assert len(jetson.nodes) == 49
    assert len(jetson.edges) == 64
    assert len({node.type for node in jetson.nodes}) == 7
    assert {edge.relation for edge in jetson.edges} == {"depends_on"}


def test_jetson_concept_is_typed_by_taxonomy_with_its_label(jetson):
    node = jetson.node_by_id["3"]
    assert node.type == "SDK"
    assert dict(node.properties) == {"label": "Jetpack Sdk"}
    prerequisites = sorted(edge.target for edge in jetson.edges if edge.source == "3")
    assert prerequisites == ["1", "2"]


def test_jetson_keeps_the_two_cycle_and_forward_references(jetson):
    pairs = {(edge.source, edge.target) for edge in jetson.edges}
    assert ("4", "5") in pairs and ("5", "4") in pairs
    assert ("2", "9") in pairs  # concept 2 names concept 9 before it is declared


def test_quoted_labels_bom_and_pipes():
    data = ("\ufeff" + HEADER.decode() + '1,"Say ""hi"", then go",,A\n2,"two, with comma",1|1,B\n').encode()
    graph = parse_learning_graph(data)
    assert dict(graph.node_by_id["1"].properties) == {"label": 'Say "hi", then go'}
    assert [(edge.source, edge.target) for edge in graph.edges] == [("2", "1"), ("2", "1")]  # parallel kept


def test_extra_columns_become_properties():
    graph = parse_learning_graph(b"ConceptID,ConceptLabel,Dependencies,TaxonomyID,Note\n1,One,,A,first\n2,Two,,A,\n")
    assert dict(graph.node_by_id["1"].properties) == {"label": "One", "Note": "first"}
    assert dict(graph.node_by_id["2"].properties) == {"label": "Two"}


@pytest.mark.parametrize("body, message", [
    (b"", "empty"),
    (b"id,label\n1,x\n", "lacks the column(s) ConceptID"),
    (HEADER + b"1,One,,A\n1,Again,,A\n", "declared twice (first on line 2)"),
    (HEADER + b"1,One,7,A\n", "depends on '7'"),
    (HEADER + b",One,,A\n", "empty ConceptID"),
    (HEADER + b"1,One,,\n", "empty TaxonomyID"),
    (HEADER + b"1,One,,A,extra\n", "1 field(s) more than the header"),
    (HEADER + b"1,One\n", "no field for the column(s) Dependencies, TaxonomyID"),
    (HEADER + b'1,"' + b"x" * 200_000 + b'",,A\n', "field larger than field limit"),
    (HEADER + b"1,\xff,,A\n", "not valid UTF-8"),
    (HEADER + b"1,One\x00,,A\n", "NUL"),
])
def test_errors_name_the_problem_and_the_line(body, message):
    with pytest.raises(LoadError) as caught:
        parse_learning_graph(body, source="mine.csv")
    text = str(caught.value)
    assert message in text
    assert "mine.csv" in text and "Fix:" in text
    if body.startswith(HEADER) and b"x" * 10 not in body:
        assert "line " in text
