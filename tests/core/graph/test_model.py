"""The graph model: canonical form, hashing, explicit policies for duplicates and missing endpoints."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given

from core.errors import GraphError
from core.graph.model import Edge, Graph, Node, RelationReading, Schema, default_reading
from tests.strategies import graphs


def test_nodes_and_edges_are_kept_in_canonical_order():
    graph = Graph.build([Node("b", "t"), Node("a", "t")], [Edge("b", "r", "a"), Edge("a", "r", "b")])
    assert [node.id for node in graph.nodes] == ["a", "b"]
    assert [(edge.source, edge.target) for edge in graph.edges] == [("a", "b"), ("b", "a")]


def test_the_hash_does_not_depend_on_input_order():
    nodes = [Node("a", "t"), Node("b", "t", (("x", 1),))]
    edges = [Edge("a", "r", "b"), Edge("b", "r", "a")]
    assert Graph.build(nodes, edges).sha256 == Graph.build(nodes[::-1], edges[::-1]).sha256


def test_true_and_one_are_different_property_values():
    one = Graph.build([Node("a", "t", (("x", 1),))], [])
    true = Graph.build([Node("a", "t", (("x", True),))], [])
    assert one != true and one.sha256 != true.sha256


def test_parallel_edges_and_self_loops_are_kept():
    graph = Graph.build([Node("a", "t")], [Edge("a", "r", "a"), Edge("a", "r", "a")])
    assert len(graph.edges) == 2


def test_disagreeing_duplicate_nodes_are_rejected_naming_every_id():
    nodes = [Node("a", "service"), Node("a", "database"), Node("b", "x"), Node("b", "y"), Node("c", "z")]
    with pytest.raises(GraphError) as caught:
        Graph.build(nodes, [])
    assert "'a'" in str(caught.value) and "'b'" in str(caught.value) and "'c'" not in str(caught.value)
    assert "merge" in str(caught.value), "the message says how to fix it"


def test_identical_duplicate_nodes_collapse_into_one():
    assert len(Graph.build([Node("a", "t"), Node("a", "t")], []).nodes) == 1


def test_merge_policy_keeps_the_first_type_and_unites_properties():
    graph = Graph.build([Node("a", "t", (("x", 1),)), Node("a", "t", (("y", 2),))], [], duplicates="merge")
    assert graph.nodes == (Node("a", "t", (("x", 1), ("y", 2))),)


def test_merge_policy_refuses_a_property_that_disagrees():
    with pytest.raises(GraphError, match="'a'"):
        Graph.build([Node("a", "t", (("x", 1),)), Node("a", "t", (("x", 2),))], [], duplicates="merge")


def test_edges_to_missing_nodes_are_rejected_naming_them():
    with pytest.raises(GraphError, match=r"'ghost'.*'phantom'"):
        Graph.build([Node("a", "t")], [Edge("a", "r", "ghost"), Edge("phantom", "r", "a")])


def test_missing_endpoints_can_be_created_explicitly():
    graph = Graph.build([Node("a", "t")], [Edge("a", "r", "ghost")], missing_endpoints="create",
                        missing_type="unknown")
    assert graph.node_by_id["ghost"] == Node("ghost", "unknown")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), None, [1], {"a": 1}])
def test_property_values_must_be_finite_scalars(value):
    with pytest.raises(GraphError, match="'x'"):
        Graph.build([Node("a", "t", (("x", value),))], [])


def test_repeated_property_keys_are_rejected():
    with pytest.raises(GraphError, match="more than once"):
        Graph.build([Node("a", "t", (("x", 1), ("x", 2)))], [])


@given(graph=graphs())
def test_networkx_round_trip_keeps_the_graph(graph):
    assert Graph.from_networkx(graph.to_networkx()) == graph


def test_an_undirected_networkx_graph_becomes_both_directions():
    undirected = nx.Graph()
    undirected.add_node("a", type="t")
    undirected.add_node("b", type="t")
    undirected.add_edge("a", "b", relation="linked")
    graph = Graph.from_networkx(undirected)
    assert {(edge.source, edge.target) for edge in graph.edges} == {("a", "b"), ("b", "a")}


def test_schema_readings_fall_back_to_the_relation_name():
    schema = Schema((("service", "A deployable program."),),
                    (RelationReading("depends_on", "depends on", "is depended on by"),))
    assert schema.reading_of("depends_on").inverse == "is depended on by"
    assert schema.reading_of("owned_by") == default_reading("owned_by")
    assert default_reading("owned_by").forward == "owned by"
    assert schema.definition_of("service") == "A deployable program."


def test_the_schema_is_not_content_but_changes_the_cache_key():
    graph = Graph.build([Node("a", "t")], [])
    with_schema = graph.with_schema(Schema((("t", "A thing."),)))
    assert graph == with_schema and graph.sha256 == with_schema.sha256
    assert graph.content_key != with_schema.content_key


# --- lone surrogates (a half of a UTF-16 pair has no UTF-8 form: no file, hash or tokenizer takes it) ----

_SURROGATES = __import__("hypothesis").strategies.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)


@__import__("hypothesis").given(data=__import__("hypothesis").strategies.data())
def test_a_lone_surrogate_anywhere_is_refused_naming_the_field(data):
    from hypothesis import strategies as st

    from core.errors import GraphError
    from tests.strategies import graphs
    graph = data.draw(graphs(max_nodes=3, max_edges=3))
    field = data.draw(st.sampled_from(["node id", "node type", "relation", "property key", "value of property"]))
    text = data.draw(st.text(max_size=3)) + data.draw(_SURROGATES) + data.draw(st.text(max_size=3))
    nodes, edges = list(graph.nodes), list(graph.edges)
    if field == "node id":
        nodes.append(Node(text, "t"))
    elif field == "node type":
        nodes.append(Node("fresh-node", text))
    elif field == "relation":
        edges.append(Edge(nodes[0].id, text, nodes[0].id))
    elif field == "property key":
        nodes.append(Node("fresh-node", "t", ((text, 1),)))
    else:
        nodes.append(Node("fresh-node", "t", (("k", text),)))
    try:
        Graph.build(nodes, edges)
    except GraphError as error:
        assert f"the {field}" in error.what and "unpaired surrogate" in error.what and error.fix
    else:
        raise AssertionError("a graph holding a lone surrogate was built")


def test_paired_surrogates_written_as_one_character_are_ordinary_text():
    graph = Graph.build([Node("spider-\U0001f578", "t", (("k", "\U0001f600"),))], [])
    assert graph.sha256 and graph.nodes[0].id == "spider-\U0001f578"
