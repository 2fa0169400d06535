"""structured_json: subject -> relation -> [objects], as KG-LLM-Bench's structured JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from core.errors import FormatError
from core.formats import structured_json
from core.formats.subject_groups import escape_key
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph
from tests.strategies import graphs


def render(graph):
    return structured_json.render(graph, graph_units(graph))


def document(graph):
    """The subject -> relation -> [objects] document the format stands for."""
    value: dict = {}
    for node in graph.nodes:
        value[node.id] = {"type": node.type, **({"properties": dict(node.properties)} if node.properties else {})}
    for edge in graph.edges:
        target = {"target": edge.target, "properties": dict(edge.properties)} if edge.properties else edge.target
        relation = escape_key(edge.relation, ("type", "properties"))
        value.setdefault(edge.source, {}).setdefault(relation, []).append(target)
    return value


def test_each_node_lists_its_targets_per_relation():
    text = render(service_graph()).text
    parsed = json.loads(text)
    assert parsed["svc-api"] == {"type": "service", "depends_on": ["svc-auth"], "owned_by": ["team-core"]}
    assert parsed["db-identity"] == {"type": "database"}
    assert text.startswith('{\n  "db-identity": {\n    "type": "database"\n  },\n  "svc-api": {\n')


@given(graph=graphs())
def test_a_full_rendering_is_json_dumps_with_indent_two(graph):
    assert render(graph).text == json.dumps(document(graph), indent=2, ensure_ascii=False)


def test_parallel_edges_repeat_their_target_and_edges_with_properties_are_objects():
    graph = Graph.build([Node("a", "t"), Node("b", "t")],
                        [Edge("a", "r", "b"), Edge("a", "r", "b"), Edge("a", "r", "b", (("w", 1.0),))])
    assert json.loads(render(graph).text)["a"]["r"] == [{"target": "b", "properties": {"w": 1.0}}, "b", "b"]
    assert structured_json.decode(render(graph).text) == graph


def test_relations_named_like_the_nodes_own_fields_get_a_tilde():
    graph = Graph.build([Node("a", "t")],
                        [Edge("a", "type", "a"), Edge("a", "~x", "a"), Edge("a", "properties", "a")])
    assert json.loads(render(graph).text)["a"] == {"type": "t", "~properties": ["a"], "~type": ["a"], "~~x": ["a"]}
    assert structured_json.decode(render(graph).text) == graph


def test_an_edge_without_its_source_node_opens_a_subject_without_a_type():
    graph = Graph.build([Node("a", "t"), Node("b", "t")], [Edge("a", "r", "b")])
    edge_only = [unit for unit in graph_units(graph) if not unit.is_node]
    text = structured_json.render(graph, edge_only).text
    assert json.loads(text) == {"a": {"r": ["b"]}}
    assert structured_json.decode(text) == Graph.build([Node("a", "unknown"), Node("b", "unknown")],
                                                       [Edge("a", "r", "b")])


def test_every_prefix_closes_its_open_list_and_objects():
    rendering = render(service_graph())
    assert rendering.prefix_text(3) == (
        '{\n  "db-identity": {\n    "type": "database"\n  },\n  "svc-api": {\n    "type": "service",\n'
        '    "depends_on": [\n      "svc-auth"\n    ]\n  }\n}')


@pytest.mark.parametrize("text, problem", [
    ('{"a": {"type": "t"}, "a": {"type": "u"}}', "appears twice"),
    ('{"a": {"type": "t", "r": ["b"], "r": ["c"]}}', "appears twice"),
    ('{"a": {"properties": {"k": 1}}}', "no type"),
    ('{"a": {"type": "t", "r": "b"}}', "expected a list"),
    ('{"a": {"type": "t", "r": [{"to": "b"}]}}', "edge object"),
    ('{"a": {"type": "t", "r": [1]}}', "expected an object"),
    ('{"a": {"type": 3}}', "expected text"),
    ('{"a": {"type": "t",}}', "invalid JSON"),
])
def test_malformed_documents_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem) as error:
        structured_json.decode(text)
    assert error.value.where
