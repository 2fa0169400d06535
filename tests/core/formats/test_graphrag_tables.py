"""graphrag_tables: GraphRAG local-search context tables, decodable through their description columns."""

from __future__ import annotations

import pytest

from core.errors import FormatError
from core.formats import graphrag_tables
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph


def render(graph):
    return graphrag_tables.render(graph, graph_units(graph))


def test_entities_carry_type_and_degree_and_relationships_their_relation():
    text = render(service_graph()).text
    assert text.startswith("-----Entities-----\nid|entity|description|number of relationships\n"
                           "0|db-identity|database|1\n1|svc-api|service|4\n")
    assert "\n\n-----Relationships-----\nid|source|target|description\n0|svc-api|svc-auth|depends_on\n" in text
    assert text.endswith("\n87|svc-web|team-growth|owned_by")
    assert graphrag_tables.decode(text) == service_graph()


def test_ids_and_degrees_belong_to_the_whole_graph_in_any_selection():
    graph = service_graph()
    units = graph_units(graph)
    chosen = [unit for unit in units if unit.key in ("n:svc-auth", "e:svc-web|owned_by|team-growth")]
    assert graphrag_tables.render(graph, chosen).text == (
        "-----Entities-----\nid|entity|description|number of relationships\n2|svc-auth|service|7\n\n"
        "-----Relationships-----\nid|source|target|description\n87|svc-web|team-growth|owned_by")


def test_a_self_loop_counts_twice_and_parallel_edges_each_count():
    graph = Graph.build([Node("a", "t")], [Edge("a", "r", "a"), Edge("a", "r", "a")])
    assert "\n0|a|t|4\n" in render(graph).text
    assert graphrag_tables.decode(render(graph).text) == graph


def test_pipes_and_line_breaks_are_escaped():
    graph = Graph.build([Node("a|b", "multi\nline"), Node("c\\d", "")], [Edge("a|b", "r\r", "c\\d")])
    text = render(graph).text
    assert "\n0|a\\pb|multi\\nline|1\n1|c\\\\d||1\n" in text and "\n0|a\\pb|c\\\\d|r\\r" in text
    assert graphrag_tables.decode(text) == graph


def test_properties_sit_where_graphrag_puts_attribute_columns():
    graph = Graph.build([Node("a", "t", (("tier", 1),)), Node("b", "t")], [Edge("a", "r", "b", (("w", 0.5),))])
    text = render(graph).text
    assert text.startswith("-----Entities-----\nid|entity|description|properties|number of relationships\n"
                           '0|a|t|{"tier":1}|1\n1|b|t||1\n')
    assert text.endswith('id|source|target|description|properties\n0|a|b|r|{"w":0.5}')
    assert graphrag_tables.decode(text) == graph


@pytest.mark.parametrize("text, problem", [
    ("-----Entities-----\nid|entity|description\n", "expected the header"),
    ("id|entity|description|number of relationships\n", "expected the line -----Entities-----"),
    ("-----Entities-----\nid|entity|description|number of relationships\n0|a|t|1", "-----Relationships-----"),
    ("-----Entities-----\nid|entity|description|number of relationships\nx|a|t|1", "row number"),
    ("-----Entities-----\nid|entity|description|number of relationships\n0|a|t|many\n\n"
     "-----Relationships-----\nid|source|target|description", "whole number"),
    ("-----Entities-----\nid|entity|description|number of relationships\n0|a\\x|t|1", "unknown escape"),
    ("-----Entities-----\nid|entity|description|number of relationships\n\n"
     "-----Relationships-----\nid|source|target|description\n0|a|b|r\n\nmore", "after the relationships"),
])
def test_malformed_tables_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem) as error:
        graphrag_tables.decode(text)
    assert error.value.where
