"""Node-link JSON: networkx files, `edges` or `links`, attributes and nested properties, schemas, lossless writing."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from hypothesis import given

from core.errors import LoadError
from core.graph.model import Edge, Graph, Node
from core.io.generate import transport_graph
from core.io.limits import Limits
from core.io.node_link import parse_node_link, write_node_link
from core.io.options import LoadOptions
from tests.strategies import graphs


def as_bytes(value: object) -> bytes:
    return json.dumps(value).encode()


def test_a_networkx_file_reads_with_integer_ids_and_flat_attributes():
    original = nx.MultiDiGraph()
    original.add_node(1, labelV="person", age=30)
    original.add_node(2, labelV="person")
    original.add_edge(1, 2, labelE="knows", since=2020)
    original.add_edge(1, 2, labelE="knows", since=2021)
    graph = parse_node_link(as_bytes(nx.node_link_data(original, edges="links")))
    assert graph.node_by_id["1"] == Node("1", "person", (("age", 30),))
    assert graph.edges == (Edge("1", "knows", "2", (("since", 2020),)), Edge("1", "knows", "2", (("since", 2021),)))


def test_edges_and_links_are_both_accepted_and_undirected_input_is_made_explicit():
    nodes = [{"id": "a"}, {"id": "b"}]
    directed = parse_node_link(as_bytes({"nodes": nodes, "edges": [{"source": "a", "target": "b"}]}))
    undirected = parse_node_link(as_bytes({"directed": False, "nodes": nodes, "links": [{"source": "a", "target": "b"}]}))
    assert [(edge.source, edge.target) for edge in directed.edges] == [("a", "b")]
    assert [(edge.source, edge.target) for edge in undirected.edges] == [("a", "b"), ("b", "a")]


def test_a_properties_object_is_unpacked_and_may_not_repeat_a_flat_member():
    graph = parse_node_link(as_bytes({"nodes": [{"id": "a", "type": "t", "x": 1, "properties": {"y": True}}]}))
    assert graph.nodes == (Node("a", "t", (("x", 1), ("y", True))),)
    with pytest.raises(LoadError, match="given more than once"):
        parse_node_link(as_bytes({"nodes": [{"id": "a", "x": 1, "properties": {"x": 2}}]}))


def test_the_type_attribute_can_be_chosen():
    data = as_bytes({"nodes": [{"id": "a", "type": "t", "group": "g"}]})
    assert parse_node_link(data, options=LoadOptions(node_type_attribute="group")).nodes == (
        Node("a", "g", (("type", "t"),)),)


def test_the_transport_schema_travels_with_the_file():
    graph = transport_graph()
    read = parse_node_link(write_node_link(graph).encode())
    assert read == graph and read.schema == graph.schema
    assert read.schema.reading_of("serves").inverse == "is served by"


@pytest.mark.parametrize("schema, message", [
    ([], "not a schema object"),
    ({"types": {"a": 1}}, "not an object of texts"),
    ({"relations": [{"relation": "r", "forward": "f"}]}, "relation reading is malformed"),
])
def test_a_malformed_schema_is_refused(schema, message):
    with pytest.raises(LoadError, match=message):
        parse_node_link(as_bytes({"nodes": [], "schema": schema}))


def test_record_counts_are_checked_before_records_are_read():
    data = as_bytes({"nodes": [{"id": str(index)} for index in range(11)]})
    with pytest.raises(LoadError, match="11 nodes, the limit is 10"):
        parse_node_link(data, limits=Limits(max_nodes=10))


@given(graphs())
def test_writing_then_reading_gives_the_same_graph(graph):
    assert parse_node_link(write_node_link(graph).encode("utf-8")) == graph


def test_what_is_written_reads_in_networkx_too():
    graph = Graph.build([Node("a", "t", (("x", 1),)), Node("b", "t")], [Edge("a", "r", "b"), Edge("a", "r", "b")])
    read = nx.node_link_graph(json.loads(write_node_link(graph)), edges="edges")
    assert read.number_of_edges("a", "b") == 2 and read.nodes["a"] == {"type": "t", "properties": {"x": 1}}


def test_a_number_and_its_text_are_refused_naming_both():
    """N3: {"id": 1} and {"id": "1"} gave one node and a self-loop, with no notice."""
    data = as_bytes({"nodes": [{"id": 1}, {"id": "1"}], "links": [{"source": 1, "target": "1"}]})
    with pytest.raises(LoadError) as caught:
        parse_node_link(data, source="n.json")
    assert str(caught.value).startswith("two ids become the same node '1': 1 (nodes[0]) and '1' (nodes[1]), once "
                                        "ids are read as text (a whole number as its digits) (at n.json). Fix: ")


def test_an_edge_naming_a_node_by_the_other_spelling_is_refused():
    data = as_bytes({"nodes": [{"id": 7}], "edges": [{"source": 7, "target": "7"}]})
    with pytest.raises(LoadError, match=r"7 \(nodes\[0\]\) and '7' \(edges\[0\].target\)"):
        parse_node_link(data)


def test_merging_a_number_and_its_text_is_said():
    from core.errors import LoadNotice

    data = as_bytes({"nodes": [{"id": 1}, {"id": "1"}], "links": [{"source": 1, "target": "1"}]})
    with pytest.warns(LoadNotice, match=r"1 id\(s\) written two ways were each read as one node .*: 1 and '1'"):
        graph = parse_node_link(data, options=LoadOptions(duplicates="merge"))
    assert len(graph.nodes) == 1


def test_an_undirected_document_is_said_with_its_counts():
    """N5: "directed": false gave each edge both ways with no notice."""
    from core.errors import LoadNotice

    data = as_bytes({"directed": False, "nodes": [{"id": "a"}, {"id": "b"}], "links": [{"source": "a", "target": "b"}]})
    with pytest.warns(LoadNotice, match=r'u.json: the file declares an undirected graph \("directed": false\): its 1 '
                                        r"edge was read as 2 directed edges, one each way"):
        parse_node_link(data, source="u.json")
