"""GraphML: typed attributes, the type and relation attributes, undirected input, and lossless writing."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from core.errors import GraphError, LoadError, LoadNotice
from core.graph.model import Edge, Graph, Node
from core.io.graphml import _NOT_XML, parse_graphml, write_graphml
from core.io.limits import Limits
from core.io.options import LoadOptions
from tests.strategies import graphs

KEYS = """<key id="t" for="node" attr.name="type" attr.type="string"/>
<key id="rel" for="edge" attr.name="relation" attr.type="string"/>
<key id="n" for="node" attr.name="n" attr.type="long"><default>7</default></key>
<key id="f" for="all" attr.name="f" attr.type="double"/>
<key id="b" for="node" attr.name="b" attr.type="boolean"/>"""


def document(body: str, edge_default: str = "directed") -> bytes:
    return (f'<graphml xmlns="http://graphml.graphdrawing.org/xmlns">{KEYS}'
            f'<graph edgedefault="{edge_default}">{body}</graph></graphml>').encode()


def test_declared_types_defaults_and_the_type_attribute():
    graph = parse_graphml(document('<node id="a"><data key="t">svc</data><data key="b">true</data>'
                                   '<data key="f">2.5</data></node><node id="b"><data key="n">-3</data></node>'
                                   '<edge source="a" target="b"><data key="rel">calls</data></edge>'))
    assert graph.node_by_id["a"] == Node("a", "svc", (("b", True), ("f", 2.5), ("n", 7)))
    assert graph.node_by_id["b"] == Node("b", "node", (("n", -3),))
    assert graph.edges == (Edge("a", "calls", "b"),)


def test_a_chosen_attribute_overrides_detection():
    graph = parse_graphml(document('<node id="a"><data key="t">svc</data><data key="b">false</data></node>'),
                          options=LoadOptions(node_type_attribute="b"))
    assert graph.nodes == (Node("a", "false", (("n", 7), ("type", "svc"))),)


def test_undirected_edges_become_both_directions_and_self_loops_stay_single():
    graph = parse_graphml(document('<node id="a"/><node id="b"/><edge source="a" target="b"/>'
                                   '<edge source="b" target="b"/><edge source="a" target="b" directed="true"/>',
                                   edge_default="undirected"))
    assert [(edge.source, edge.target) for edge in graph.edges] == [("a", "b"), ("a", "b"), ("b", "a"), ("b", "b")]


def test_missing_endpoints_can_be_created():
    body = '<node id="a"/><edge source="a" target="ghost"/>'
    with pytest.raises(LoadError, match="'ghost', which is not declared"):
        parse_graphml(document(body))
    graph = parse_graphml(document(body), options=LoadOptions(missing_endpoints="create"))
    assert graph.node_by_id["ghost"].type == "node"


def test_yed_graphics_are_skipped():
    data = (b'<graphml><key id="g" for="node" yfiles.type="nodegraphics"/><graph><node id="a">'
            b'<data key="g"><ShapeNode><Fill color="#fff"/></ShapeNode></data></node></graph></graphml>')
    with pytest.warns(LoadNotice, match="skipped yEd/yFiles graphics data"):
        assert parse_graphml(data).nodes == (Node("a", "node"),)


YED = Path(__file__).parents[2] / "data" / "yed"


def test_a_yed_desktop_file_loads_with_its_node_labels_and_one_notice():
    """D22: yEd's graphics keys (yfiles.type) are skipped; a node without a label takes yEd's NodeLabel."""
    with pytest.warns(LoadNotice) as notices:
        graph = parse_graphml((YED / "yed_desktop.graphml").read_bytes(), source="yed_desktop.graphml")
    assert (len(graph.nodes), len(graph.edges)) == (3, 2)  # networkx reads 3 nodes, 2 edges
    assert graph.node_by_id["n0"].properties == (("description", "the web front end"), ("label", "frontend"))
    assert graph.node_by_id["n1"].properties == (("label", "cart service"),)
    assert graph.node_by_id["n2"].properties == ()
    assert [str(notice.message) for notice in notices if notice.category is LoadNotice] == [
        "yed_desktop.graphml: skipped yEd/yFiles graphics data (d6, d10); 2 node labels taken from yEd's node labels"]


def test_a_yfiles_for_html_file_loads_skipping_its_graphics_keys_and_ports():
    """D22: yFiles for HTML / yEd Live mark their keys with y:attr.uri (not yfiles.type), and nodes hold ports."""
    with pytest.warns(LoadNotice) as notices:
        graph = parse_graphml((YED / "yfiles_for_html.graphml").read_bytes(), source="yfiles.graphml")
    assert (len(graph.nodes), len(graph.edges)) == (4, 4)  # networkx reads 4 nodes, 4 edges
    assert graph.node_by_id["n0"].properties == (("description", "start here"), ("label", "Start"))
    assert graph.node_by_id["n1"].properties == (("label", "Middle"),)
    assert graph.node_by_id["n2"].properties == ()
    assert dict(graph.edges[1].properties) == {"description": "the second step"}
    notices = [notice for notice in notices if notice.category is LoadNotice]  # not a socket another test left
    message = str(notices[0].message)
    assert len(notices) == 1 and "\n" not in message
    assert message.startswith("yfiles.graphml: skipped yEd/yFiles graphics data (zOrder, NodeLabels, NodeGeometry, "
                              "NodeStyle, EdgeLabels, EdgeStyle) and 3 node ports; 3 node labels")


def test_a_label_of_the_files_own_wins_over_yeds():
    data = (b'<graphml><key id="l" for="node" attr.name="label" attr.type="string"/>'
            b'<key id="g" for="node" yfiles.type="nodegraphics"/><graph><node id="a"><data key="l">mine</data>'
            b'<data key="g"><ShapeNode><NodeLabel>drawn</NodeLabel></ShapeNode></data></node></graph></graphml>')
    with pytest.warns(LoadNotice):
        assert parse_graphml(data, options=LoadOptions(node_type_attribute="none")).nodes[0].properties == (
            ("label", "mine"),)


@pytest.mark.parametrize("body, message", [
    ('<node id="a"><data key="n">1.5</data></node>', "declared long but holds '1.5'"),
    ('<node id="a"><data key="f">NaN</data></node>', "declared double but holds 'NaN'"),
    ('<node id="a"><data key="rel">x</data></node>', "declared for edges but used on a node"),
    ('<node id="a"><data key="b">yes</data></node>', "declared boolean"),
    ('<hyperedge/>', "<hyperedge> is not supported"),
    ('<node id="a"><graph/></node>', "<graph> inside <node>"),
])
def test_bad_values_and_elements_name_the_line_and_the_problem(body, message):
    with pytest.raises(LoadError, match=r"line \d+") as caught:
        parse_graphml(document(body), source="mine.graphml")
    assert message in str(caught.value) and "mine.graphml" in str(caught.value)


def test_the_nesting_limit_is_checked_while_parsing():
    with pytest.raises(LoadError, match="nests too deeply"):
        parse_graphml(document('<node id="a"/>'), limits=Limits(max_depth=2))


def xml_safe_text(text):
    return _NOT_XML.sub(lambda match: f"U+{ord(match.group()):04X}", text) if isinstance(text, str) else text


def xml_safe(graph: Graph) -> Graph:
    """The graph with every character XML 1.0 cannot hold spelled out as U+XXXX."""
    def properties(items):
        return tuple((xml_safe_text(key), xml_safe_text(value)) for key, value in items)

    return Graph.build([Node(xml_safe_text(node.id), xml_safe_text(node.type), properties(node.properties))
                        for node in graph.nodes],
                       [Edge(xml_safe_text(edge.source), xml_safe_text(edge.relation), xml_safe_text(edge.target),
                             properties(edge.properties)) for edge in graph.edges])


xml_safe_graphs = graphs().map(xml_safe)


@given(xml_safe_graphs)
def test_writing_then_reading_gives_the_same_graph(graph):
    assert parse_graphml(write_graphml(graph).encode("utf-8")) == graph


def test_text_xml_cannot_hold_is_refused_when_writing():
    with pytest.raises(GraphError, match=r"U\+0000"):
        write_graphml(Graph.build([Node("a\x00", "t")], []))


def test_a_property_named_like_the_type_attribute_is_refused_when_writing():
    with pytest.raises(GraphError, match="'labelV'"):
        write_graphml(Graph.build([Node("a", "t", (("labelV", "x"),))], []))
    graph = Graph.build([Node("a", "t", (("labelV", "x"),))], [])
    written = write_graphml(graph, node_type_attribute="kind")
    assert parse_graphml(written.encode(), options=LoadOptions(node_type_attribute="kind")) == graph


def test_running_out_of_memory_is_not_disguised_as_a_bad_file(monkeypatch):
    from defusedxml.ElementTree import XMLParser

    def exhausted(self, data):
        raise MemoryError

    monkeypatch.setattr(XMLParser, "feed", exhausted)
    with pytest.raises(MemoryError):
        parse_graphml(b'<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph/></graphml>')


def test_undirected_edges_are_said_with_their_counts():
    """N5: edgedefault="undirected" read each edge as two directed ones with no notice."""
    from core.errors import LoadNotice

    with pytest.warns(LoadNotice) as caught:
        parse_graphml(document('<node id="a"/><node id="b"/><edge source="a" target="b"/><edge source="b" target="b"/>',
                               edge_default="undirected"), source="u.graphml")
    assert [str(notice.message) for notice in caught] == [
        'u.graphml: the file declares an undirected graph (edgedefault="undirected"): its 2 edges were read as 3 '
        "directed edges, one each way (self-loops once: 1)"]
    with pytest.warns(LoadNotice, match=r'1 of its 2 edges are undirected \(directed="false"\): read as 2 directed'):
        parse_graphml(document('<node id="a"/><node id="b"/><edge source="a" target="b"/>'
                               '<edge source="a" target="b" directed="false"/>'))


def test_a_directed_graph_gives_no_notice():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parse_graphml(document('<node id="a"/><node id="b"/><edge source="a" target="b"/>'))
