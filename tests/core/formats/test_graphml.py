"""graphml: GraphML through networkx, with the characters XML 1.0 cannot carry escaped."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree

import defusedxml.ElementTree
import networkx as nx
import pytest
from hypothesis import given

from core.errors import FormatError
from core.formats import graphml
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph
from tests.strategies import graphs


def render(graph):
    return graphml.render(graph, graph_units(graph))


def test_nodes_then_edges_as_networkx_writes_them():
    rendering = render(service_graph())
    assert rendering.preamble.startswith("<?xml version='1.0' encoding='utf-8'?>\n<graphml ")
    assert rendering.preamble.endswith(
        '  <key id="d1" for="edge" attr.name="relation" attr.type="string" />\n'
        '  <key id="d0" for="node" attr.name="type" attr.type="string" />\n'
        '  <graph edgedefault="directed">')
    assert rendering.records[1].text == ('\n    <node id="svc-api">\n      <data key="d0">service</data>\n'
                                         '    </node>')
    assert rendering.records[43].text == ('\n    <edge source="svc-api" target="svc-auth" id="e0">\n'
                                          '      <data key="d1">depends_on</data>\n    </edge>')
    assert rendering.closing == "\n  </graph>\n</graphml>\n"


@given(graph=graphs())
def test_every_line_is_a_line_networkx_writes(graph):
    written = io.BytesIO()
    nx.write_graphml(graphml._network(graph)[0], written)
    expected = written.getvalue().decode("utf-8")
    if not graph.nodes:
        empty = '<graph edgedefault="directed">\n  </graph>'
        expected = expected.replace('<graph edgedefault="directed" />', empty)
    assert sorted(render(graph).text.split("\n")) == sorted(expected.split("\n"))  # edges: our order


@pytest.mark.parametrize("value, escaped", [
    ("plain", "plain"), ("a\\b", "a\\\\b"), ("\x00", "\\u0000"), ("\x0b", "\\u000b"), ("\x0c", "\\u000c"),
    ("\r\n", "\\u000d\n"), ("\x1f", "\\u001f"), ("\ufffe\uffff", "\\ufffe\\uffff"), ("\\u0000", "\\\\u0000"),
    ("tab\tand é\x85\u2028", "tab\tand é\x85\u2028"),
])
def test_characters_xml_cannot_hold_are_escaped_reversibly(value, escaped):
    assert graphml.escape_text(value) == escaped
    assert graphml.unescape_text(escaped, "test") == value


def test_without_the_escaping_networkx_would_write_invalid_xml():
    network = nx.MultiDiGraph()
    network.add_node("a\x0b", type="t")
    written = io.BytesIO()
    nx.write_graphml(network, written)
    with pytest.raises(ElementTree.ParseError):
        nx.parse_graphml(written.getvalue())


def test_a_graph_full_of_such_characters_is_well_formed_and_round_trips():
    awkward = ["\x00", "\x0b", "\r", "\\", "\ufffe", "a\r\nb", "", " lead"]
    graph = Graph.build([Node(value, value, ((value, value),)) for value in awkward],
                        [Edge(value, value, "\x00", ((value, value),)) for value in awkward])
    text = render(graph).text
    defusedxml.ElementTree.fromstring(text, forbid_dtd=True)  # well-formed XML 1.0
    assert '<node id="\\u000b">' in text and '<node id="\\\\">' in text and "\r" not in text
    assert graphml.decode(text) == graph


def test_typed_values_keep_their_types_through_the_key_declarations():
    values = {"a": True, "b": 1, "c": 1.0, "d": "1"}
    graph = Graph.build([Node(node_id, "t", (("v", value),)) for node_id, value in values.items()]
                        + [Node("e", "t", (("type", "x"),))], [])
    text = render(graph).text
    for declared in ('attr.name="v" attr.type="boolean"', 'attr.name="v" attr.type="long"',
                     'attr.name="v" attr.type="double"', 'attr.name="v" attr.type="string"',
                     'attr.name="~type" attr.type="string"'):
        assert declared in text
    decoded = graphml.decode(text)
    assert decoded == graph
    assert [type(dict(node.properties).get("v")) for node in decoded.nodes] == [bool, int, float, str, type(None)]


_HEAD = '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
_GRAPH = '<graph edgedefault="directed">'
_KEYS = ('<key id="d0" for="node" attr.name="type" attr.type="string"/>'
         '<key id="d1" for="edge" attr.name="relation" attr.type="string"/>')


@pytest.mark.parametrize("text, problem", [
    ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
     f'{_HEAD}<graph edgedefault="directed"><node id="&lol2;"/></graph></graphml>', "DTD"),
    (f'{_HEAD}<graph edgedefault="undirected"/></graphml>', "undirected"),
    (f'{_HEAD}{_KEYS}{_GRAPH}<node><data key="d0">t</data></node></graph></graphml>', "no id"),
    (f'{_HEAD}{_KEYS}{_GRAPH}<node id="a"/><node id="a"/></graph></graphml>', "repeated"),
    (f'{_HEAD}{_KEYS}{_GRAPH}<edge source="a" target="b" id="e"/>'
     '<edge source="a" target="b" id="e"/></graph></graphml>', "repeated"),
    (f'{_HEAD}{_KEYS}{_GRAPH}<edge source="a" target="b"/></graph></graphml>', "no relation"),
    (f'{_HEAD}{_KEYS}{_GRAPH}<node id="a"><data key="d9">t</data></node></graph></graphml>',
     "no key d9"),
    (f'{_HEAD}<key id="d0" for="node" attr.name="type"/><graph edgedefault="directed"/></graphml>', "attr.type"),
    (f'{_HEAD}{_KEYS}{_GRAPH}<node id="a\\q"><data key="d0">t</data></node></graph></graphml>',
     "unknown escape"),
    ('<graphml><graph/></graphml>', "root element"),
    (f'{_HEAD}<graph edgedefault="directed"><node id="a"></graph></graphml>', "invalid XML"),
])
def test_malformed_documents_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem) as error:
        graphml.decode(text)
    assert error.value.where
