"""GEXF: Gephi's files read safely, with the limits checked while streaming; our export reads back as the same graph."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from core.errors import GraphError, LoadError, LoadNotice
from core.io import load, save_graph
from core.io.generate import service_graph, transport_graph
from core.io.gexf import parse_gexf, write_gexf
from core.io.limits import Limits
from tests.hypothesis_profiles import examples
from tests.strategies import graphs

THIRD_PARTY = Path(__file__).resolve().parents[2] / "data" / "third_party"

GEPHI = b"""<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" version="1.3">
  <meta lastmodifieddate="2024-01-01"><creator>Gephi 0.10</creator></meta>
  <graph defaultedgetype="directed" mode="static">
    <attributes class="node" mode="static">
      <attribute id="type" title="type" type="string"/>
      <attribute id="rank" title="rank" type="integer"/>
    </attributes>
    <attributes class="edge" mode="static">
      <attribute id="since" title="since" type="integer"/>
    </attributes>
    <nodes>
      <node id="0" label="Hello">
        <attvalues><attvalue for="type" value="greeting"/><attvalue for="rank" value="1"/></attvalues>
        <viz:size value="10.0"/><viz:position x="1.0" y="2.0" z="0.0"/>
      </node>
      <node id="1" label="Word"><attvalues><attvalue for="type" value="noun"/></attvalues></node>
    </nodes>
    <edges>
      <edge id="0" source="0" target="1" label="precedes" weight="2.5">
        <attvalues><attvalue for="since" value="2020"/></attvalues>
      </edge>
    </edges>
  </graph>
</gexf>
"""


def test_a_gephi_file_reads_with_types_labels_relations_and_typed_attributes():
    graph = parse_gexf(GEPHI)
    assert [(node.id, node.type) for node in graph.nodes] == [("0", "greeting"), ("1", "noun")]
    assert dict(graph.nodes[0].properties) == {"label": "Hello", "rank": 1,
                                               "viz": '{"position":{"x":1.0,"y":2.0,"z":0.0},"size":10.0}'}
    assert [(edge.source, edge.relation, edge.target, dict(edge.properties)) for edge in graph.edges] == [
        ("0", "precedes", "1", {"since": 2020, "weight": 2.5})]


def test_detection_finds_gexf_by_its_root_and_by_its_extension():
    assert load(GEPHI, name="graph.xml").format == "gexf"
    assert load(GEPHI, name="graph.gexf").format == "gexf"


def test_an_undirected_gexf_gives_each_edge_both_ways():
    text = GEPHI.replace(b'defaultedgetype="directed"', b'defaultedgetype="undirected"')
    assert [(edge.source, edge.target) for edge in parse_gexf(text).edges] == [("0", "1"), ("1", "0")]


@pytest.mark.parametrize("graph", [service_graph(), transport_graph()], ids=["services", "transport"])
def test_export_reads_back_as_the_same_graph(graph):
    text = save_graph(graph, "gexf")
    assert text.startswith("<gexf") and parse_gexf(text.encode()) == graph


@settings(max_examples=examples(150, 50))
@given(graph=graphs())
def test_any_graph_either_round_trips_or_is_refused_at_export(graph):
    try:
        text = write_gexf(graph)
    except GraphError as error:
        assert "GEXF" in str(error)
        return
    assert parse_gexf(text.encode()) == graph


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text, words", [
    (b"", "the file is empty"),
    (b'<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaa">]><gexf/>', "document type"),
    (b'<?xml version="1.0" encoding="x"?><gexf/>', "unknown encoding"),
    (b"<gexf><graph><nodes><node id='a'></nodes></graph></gexf>", "mismatched tag"),
    (b"<graphml/>", "not <gexf>"),
    (GEPHI.replace(b'value="1"/>', b'value="one"/>'), "the GEXF cannot be read"),
])
def test_hostile_gexf_is_refused_with_the_cause(text, words):
    with pytest.raises(LoadError, match="Fix:") as caught:
        parse_gexf(text, source="g.gexf")
    assert words in str(caught.value)


@pytest.mark.timeout(30)
def test_nodes_are_counted_while_streaming_and_refused_at_the_limit():
    nodes = b"".join(b'<node id="%d"/>' % index for index in range(300_000))
    text = b'<gexf xmlns="http://www.gexf.net/1.2draft"><graph><nodes>' + nodes + b"</nodes></graph></gexf>"
    with pytest.raises(LoadError, match="50,001 nodes, the limit is 50,000") as caught:
        parse_gexf(text, source="big.gexf", limits=Limits(max_bytes=len(text)))
    assert "line 1" in str(caught.value)


def test_repeated_ids_and_undeclared_ends_follow_the_load_policies():
    from core.io.options import LoadOptions
    twice = b'<gexf xmlns="http://gexf.net/1.3"><graph><nodes><node id="a"/><node id="a"/></nodes></graph></gexf>'
    with pytest.raises(LoadError, match="the node id 'a' is declared twice"):
        parse_gexf(twice)
    assert [node.id for node in parse_gexf(twice, options=LoadOptions(duplicates="merge")).nodes] == ["a"]
    dangling = (b'<gexf xmlns="http://gexf.net/1.3"><graph defaultedgetype="directed"><nodes><node id="a"/></nodes>'
                b'<edges><edge source="a" target="b"/></edges></graph></gexf>')
    with pytest.raises(LoadError, match="node 'b', which is not declared"):
        parse_gexf(dangling)
    assert [node.id for node in parse_gexf(dangling, options=LoadOptions(missing_endpoints="create")).nodes] == ["a", "b"]


def test_a_node_without_a_label_has_no_label_property():
    """D23: a GEXF node without `label` got the property label = "null" (networkx gives None)."""
    data = (b'<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2"><graph defaultedgetype="directed">'
            b'<nodes><node id="a"/><node id="b" label="B"/></nodes><edges><edge id="0" source="a" target="b"/>'
            b"</edges></graph></gexf>")
    graph = parse_gexf(data)
    assert [node.properties for node in graph.nodes] == [(), (("label", "B"),)]


@pytest.mark.parametrize("namespace", ["http://www.gexf.net/1.3", "http://gexf.net/1.3"])
def test_gephi_gexf_1_3_files_are_read(namespace):
    """D21: Gephi's GEXF 1.3 files (namespace http://www.gexf.net/1.3) were refused: "No <graph> element"."""
    data = (f'<?xml version="1.0" encoding="UTF-8"?><gexf xmlns="{namespace}" xmlns:viz="{namespace}/viz" '
            'version="1.3"><graph defaultedgetype="directed"><attributes class="node"><attribute id="0" '
            'title="type" type="string"/></attributes><nodes><node id="a" label="A"><attvalues><attvalue for="0" '
            'value="person"/></attvalues><viz:color r="1" g="2" b="3"/></node><node id="b" label="B"/></nodes>'
            '<edges><edge id="0" source="a" target="b"/></edges></graph></gexf>').encode()
    graph = parse_gexf(data)
    assert [(node.id, node.type) for node in graph.nodes] == [("a", "person"), ("b", "node")]
    assert len(graph.edges) == 1


def test_an_unknown_gexf_namespace_is_named_as_the_reason():
    data = b'<gexf xmlns="http://example.org/gexf/9.9"><graph><nodes><node id="a"/></nodes></graph></gexf>'
    with pytest.raises(LoadError, match="namespace is not one of the GEXF versions") as caught:
        parse_gexf(data)
    assert "xmlns='http://gexf.net/1.3'" in str(caught.value)


def test_timestamps_are_dropped_with_a_notice():
    """D31: GEXF timestamp attributes (Gephi's timezone test) were dropped silently (networkx drops them too)."""
    from core.errors import LoadNotice

    data = (b'<gexf xmlns="http://gexf.net/1.3" version="1.3"><graph defaultedgetype="directed" mode="dynamic" '
            b'timeformat="datetime" timezone="Europe/Paris"><nodes><node id="a" label="A" '
            b'timestamp="2020-01-01T10:00:00"/><node id="b" label="B"/></nodes><edges><edge id="0" source="a" '
            b'target="b"/></edges></graph></gexf>')
    with pytest.warns(LoadNotice, match="skipped the dynamic 'timestamp'"):
        graph = parse_gexf(data)
    assert [node.properties for node in graph.nodes] == [(("label", "A"),), (("label", "B"),)]


def test_an_infinite_double_is_kept_as_the_text_json_writers_use_with_a_notice():
    """D23: the graph model holds finite numbers only (it refuses inf), so INF is kept as "Infinity": now said."""
    data = (b'<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2"><graph defaultedgetype="directed">'
            b'<attributes class="node"><attribute id="0" title="w" type="double"/></attributes><nodes>'
            b'<node id="a" label="A"><attvalues><attvalue for="0" value="INF"/></attvalues></node>'
            b'<node id="b" label="B"><attvalues><attvalue for="0" value="-INF"/></attvalues></node></nodes>'
            b"</graph></gexf>")
    with pytest.warns(LoadNotice, match=r'i.gexf: 2 infinite number\(s\) kept as the text "Infinity" or "-Infinity" '
                                        r"\(the graph model and its formats hold finite numbers only\): node 'a', 'w'"):
        graph = parse_gexf(data, source="i.gexf")
    assert [dict(node.properties)["w"] for node in graph.nodes] == ["Infinity", "-Infinity"]


def test_a_file_without_graph_says_so():
    """D21: a GEXF without <graph> was refused with a message about its namespace."""
    data = b'<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2"><nodes><node id="a"/></nodes></gexf>'
    with pytest.raises(LoadError, match=r"the file has no <graph> element inside <gexf> \(at g.gexf\)") as caught:
        parse_gexf(data, source="g.gexf")
    assert "namespace" not in str(caught.value)


def test_a_file_without_graph_in_an_unknown_namespace_names_both():
    data = b'<gexf xmlns="http://example.org/x"><nodes/></gexf>'
    with pytest.raises(LoadError, match=r"no <graph> element inside <gexf> \(and its namespace is not a GEXF "
                                        r"version's: it is 'http://example.org/x'\)"):
        parse_gexf(data)


@pytest.mark.parametrize("declaration, words", [
    (' defaultedgetype="undirected"', 'defaultedgetype="undirected"'), ("", "no defaultedgetype, GEXF's default")])
def test_an_undirected_graph_is_said_with_its_counts(declaration, words):
    """N5: each undirected edge became two directed ones with no notice."""
    data = (f'<gexf xmlns="http://gexf.net/1.3" version="1.3"><graph{declaration}><nodes><node id="a"/>'
            '<node id="b"/><node id="c"/></nodes><edges><edge id="0" source="a" target="b"/>'
            '<edge id="1" source="b" target="c"/><edge id="2" source="c" target="c"/></edges></graph></gexf>').encode()
    with pytest.warns(LoadNotice) as caught:
        graph = parse_gexf(data, source="u.gexf")
    assert len(graph.edges) == 5
    assert str(caught[0].message) == (f"u.gexf: the file declares an undirected graph ({words}): its 3 edges were "
                                      "read as 5 directed edges, one each way (self-loops once: 1)")


def test_a_directed_graph_gives_no_notice():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parse_gexf(GEPHI)
