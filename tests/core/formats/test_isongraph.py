"""isongraph: the text ison-graph's ISONGraph.to_ison() writes, read back by ISONGraph.from_ison."""

from __future__ import annotations

import json
from pathlib import Path

import ison_parser
import pytest
from ison_graph import DuplicateEdgeError, ISONGraph

from core.formats import isongraph
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.io.node_link import parse_node_link

BENCHMARK = Path(__file__).resolve().parents[2] / "data" / "published-formats" / "isongraph"
SOCIAL = json.loads((BENCHMARK / "isongraph-kg-benchmark.json").read_text(encoding="utf-8"))["social_network"]["data"]


def package_graph(graph: Graph) -> ISONGraph:
    """The same graph built with ISONGraph's own API (for graphs whose names it accepts)."""
    def written(node_id: str) -> str | int:
        node = graph.node_by_id[node_id]
        return node.id_value if node.id_value is not None else node.id

    built = ISONGraph()
    for node in graph.nodes:
        built.add_node(node.type, written(node.id), **dict(node.properties))
    for edge in graph.edges:
        built.add_edge(edge.relation, (graph.node_by_id[edge.source].type, written(edge.source)),
                       (graph.node_by_id[edge.target].type, written(edge.target)), **dict(edge.properties))
    return built


def in_package_order(graph: Graph, text: str) -> list:
    """The graph's units in the order of the rows of a text ISONGraph wrote."""
    keys = []
    for block in ison_parser.loads(text).blocks:
        for row in block.rows:
            keys.append(f"n:{row['id']}" if block.kind == "nodes"
                        else f"e:{row['source'].id}|{block.name}|{row['target'].id}")
    units = {unit.key: unit for unit in graph_units(graph)}
    return [units[key] for key in keys]


@pytest.mark.parametrize("graph", [service_graph(), parse_node_link(json.dumps(SOCIAL).encode("utf-8"))],
                         ids=["services", "social_network"])
def test_in_the_package_s_row_order_the_text_is_the_package_s_own(graph):
    expected = package_graph(graph).to_ison()
    assert isongraph.render(graph, in_package_order(graph, expected)).text == expected


@pytest.mark.parametrize("graph", [service_graph(), parse_node_link(json.dumps(SOCIAL).encode("utf-8"))],
                         ids=["services", "social_network"])
def test_the_package_reads_the_lab_s_text_in_any_order_as_the_same_graph(graph):
    text = isongraph.render(graph, graph_units(graph)).text
    assert ISONGraph.from_ison(text).to_ison() == package_graph(graph).to_ison()
    assert isongraph.decode(text) == graph


def test_blocks_come_in_the_package_s_order_with_references_to_typed_nodes():
    graph = Graph.build([Node("1", "person", (("name", "Alice"),), 1), Node("2", "person", (), 2)],
                        [Edge("1", "knows", "2", (("since", 2020),))])
    assert isongraph.render(graph, graph_units(graph)).text == (
        "edges.knows\nsince source target\n2020 :person:1 :person:2\n\n"
        "nodes.person\nid name\n1 Alice\n2 null")


def test_names_the_package_cannot_hold_are_percent_encoded_after_a_tilde_and_read_back():
    graph = Graph.build([Node("Washington, D.C.", "big city"), Node("~1", "t", (("a.b", 1),))],
                        [Edge("Washington, D.C.", "largest city", "~1")])
    text = isongraph.render(graph, graph_units(graph)).text
    assert text == ('edges.~largest%20city\nsource target\n:~big%20city:~Washington%2C%20D.C. :t:~~1\n\n'
                    'nodes.t\nid properties\n~1 "{\\"a.b\\": 1}"\n\n'
                    'nodes.~big%20city\nid\n"Washington, D.C."')
    assert isongraph.decode(text) == graph


def test_parallel_edges_are_repeated_rows_which_isongraph_itself_refuses():
    graph = Graph.build([Node("a", "t"), Node("b", "t")], [Edge("a", "r", "b"), Edge("a", "r", "b")])
    text = isongraph.render(graph, graph_units(graph)).text
    assert text.count(":t:a :t:b") == 2 and isongraph.decode(text) == graph
    with pytest.raises(DuplicateEdgeError):
        ISONGraph.from_ison(text)
