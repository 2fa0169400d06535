"""xml: defusedxml's XML parser (no DTD, no entities) reads the same elements as the lab's decoder."""

from __future__ import annotations

import defusedxml.ElementTree
import pytest
from hypothesis import given, settings

from core.errors import FormatError
from core.formats import xml_format
from core.formats.graphml import unescape_text
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from tests.core.formats.independent_samples import SAMPLE_NAMES, sample_graphs
from tests.hypothesis_profiles import examples
from tests.strategies import graphs

TYPES = {None: str, "integer": int, "double": float, "boolean": lambda text: text == "true"}


def lab_text(value: str) -> str:
    return unescape_text(value, "defusedxml")


def properties(element) -> tuple:
    return tuple((lab_text(item.get("key")), lab_text(item.text or "") if item.get("type") is None
                  else TYPES[item.get("type")](item.text)) for item in element.findall("property"))


def defusedxml_graph(text: str) -> Graph:
    """The graph the elements defusedxml parses mean, read from the element tree alone."""
    root = defusedxml.ElementTree.fromstring(text, forbid_dtd=True)
    assert root.tag == "graph"
    nodes = [Node(lab_text(node.get("id")), lab_text(node.get("type")), properties(node))
             for node in root.findall("node")]
    edges = [Edge(lab_text(edge.get("source")), lab_text(edge.get("relation")), lab_text(edge.get("target")),
                  properties(edge)) for edge in root.findall("edge")]
    assert len(root) == len(nodes) + len(edges)
    return Graph.build(nodes, edges, missing_endpoints="create")


def check_agreement(graph: Graph) -> None:
    text = xml_format.render(graph, graph_units(graph)).text
    assert defusedxml_graph(text) == xml_format.decode(text) == graph


@pytest.mark.parametrize("sample", SAMPLE_NAMES)
def test_defusedxml_reads_every_sample_as_the_decoder_does(sample):
    check_agreement(sample_graphs()[sample])


@settings(max_examples=examples(150, 50))
@given(graph=graphs())
def test_defusedxml_reads_hostile_graphs_as_the_decoder_does(graph):
    check_agreement(graph)


def test_line_breaks_and_tabs_are_character_references_so_no_parser_turns_them_into_spaces():
    graph = Graph.build([Node("a\tb", "t\n", (("k", " x\r\n"),))], [])
    text = xml_format.render(graph, graph_units(graph)).text
    assert text == ('<graph>\n<node id="a&#9;b" type="t&#10;"><property key="k"> x\\u000d&#10;</property></node>'
                    "\n</graph>\n")
    check_agreement(graph)


@pytest.mark.parametrize("text, problem", [
    ('<!DOCTYPE g [<!ENTITY e "x">]>\n<graph>\n</graph>\n', "not <graph>"),
    ('<graph>\n<node id="&e;" type="t"/>\n</graph>\n', "bare &"),
    ('<graph>\n<node id="&#0;" type="t"/>\n</graph>\n', "not an XML character"),
    ('<graph>\n<node id="a" type="t"><property key="k" type="integer">x</property></node>\n</graph>\n', "integer"),
    ('<graph>\n<node id="a" type="t">\x01</node>\n</graph>\n', "cannot stand"),
])
def test_what_no_xml_reader_should_accept_is_a_format_error(text, problem):
    with pytest.raises(FormatError, match=problem):
        xml_format.decode(text)
