"""load_graph: format detection, explicit formats, ambiguity, limits, and round trips through every exporter."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import LoadError
from core.formats import FORMATS
from core.formats.base import Format
from core.graph.model import Graph, Node
from core.io import export_format_names, format_names, load, load_graph, load_graph_file, loading, save_graph
from core.io.generate import learning_graph, service_graph, transport_graph
from core.io.limits import LimitError, Limits
from core.registry import Registry
from tests.core.io.test_graphml import xml_safe_graphs
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

REGISTERED_LOSSLESS = [name for name in FORMATS if FORMATS.get(name).lossless]
# GEXF and Pajek refuse some texts at export (and Pajek keeps values as text): their own property tests
# (tests/core/io/test_gexf.py, test_pajek.py) check that they round trip or refuse.
ONE_FILE_EXPORTS = [name for name in export_format_names() if name not in ("edge-list", "learning-graph", "gexf", "pajek")]


@pytest.mark.parametrize("data, name, expected", [
    (b'<?xml version="1.0"?><graphml><graph/></graphml>', "g.dat", "graphml"),
    (b"<graphml><graph/></graphml>", "g", "graphml"),
    (b"graph [ node [ id 1 ] ]", "g.txt", "gml"),
    (b"ConceptID,ConceptLabel,Dependencies,TaxonomyID\n1,One,,A\n", "lg.csv", "learning-graph"),
    (b"\xef\xbb\xbfsource,relation,target\na,r,b\n", "e.csv", "edge-list"),
    (b'{"directed": true, "nodes": [{"id": 1, "colour": "red"}], "links": []}', "n.json", "node-link"),
])
def test_formats_are_detected_from_the_content(data, name, expected):
    assert load(data, name=name).format == expected


@pytest.mark.parametrize("format", REGISTERED_LOSSLESS)
def test_every_registered_format_is_detected_or_agrees_on_the_graph(format):
    graph = service_graph(8, 6, 3)
    loaded = load(save_graph(graph, format).encode("utf-8"), name="graph")
    assert loaded.graph == graph and loaded.format in format_names()


def test_a_json_reader_that_skips_members_loses_to_one_that_keeps_them():
    data = b'{"nodes": [{"id": "a", "type": "t", "colour": "red"}], "edges": []}'  # pretty_json skips colour
    loaded = load(data, name="g.json")
    assert loaded.format == "node-link" and loaded.graph.nodes == (Node("a", "t", (("colour", "red"),)),)


def test_readers_that_disagree_on_the_structure_make_the_file_ambiguous(monkeypatch):
    def other_graph(text: str) -> Graph:
        return Graph.build([Node("other", "t")], [])

    impostor = Format("impostor", "Impostor", True, "", render=None, decode=other_graph)
    registry = Registry("format", [(name, FORMATS.get(name)) for name in FORMATS] + [("impostor", impostor)])
    monkeypatch.setattr(loading, "FORMATS", registry)
    with pytest.raises(LoadError, match="several formats that give different graphs: jsonl, impostor"):
        load(save_graph(service_graph(4, 1, 1), "jsonl").encode(), name="g")
    assert load(save_graph(service_graph(4, 1, 1), "jsonl").encode(), name="g", format="jsonl").format == "jsonl"


def test_an_unknown_format_name_lists_the_known_ones():
    with pytest.raises(LoadError, match="unknown graph file format 'protobuf'") as caught:
        load_graph(b"digraph {}", name="g.pb", format="protobuf")
    assert "graphml, gexf, gml, pajek, node-link" in str(caught.value)


def test_a_nodes_table_only_goes_with_an_edge_list():
    with pytest.raises(LoadError, match="goes with an edge-list CSV"):
        load_graph(b"<graphml/>", name="g.graphml", format="graphml", nodes=b"id\na\n")


def test_a_format_error_becomes_a_load_error_with_the_line():
    with pytest.raises(LoadError, match=r"not valid typed_edges: .* \(at bad.txt, line 2") as caught:
        load_graph(b"#graph-v1\nX|y\n", name="bad.txt", format="typed_edges")
    assert "Fix:" in str(caught.value)


def test_the_byte_limit_is_checked_before_any_parsing():
    with pytest.raises(LimitError, match="101 bytes, the limit is 100 bytes"):
        load_graph(b"\xff" * 101, name="big.bin", limits=Limits(max_bytes=100))


def test_a_file_over_the_byte_limit_is_not_read(tmp_path, monkeypatch):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b" " * 200)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("the file was read"))
    with pytest.raises(LimitError, match="200 bytes"):
        load_graph_file(path, limits=Limits(max_bytes=100))


@pytest.mark.parametrize("limits, message", [
    (Limits(max_nodes=42), "43 nodes, the limit is 42"),
    (Limits(max_edges=87), "88 edges, the limit is 87"),
    (Limits(max_string_length=13), "14 characters, the limit is 13"),
])
def test_count_and_text_limits_apply_to_every_format(limits, message):
    for format in ("jsonl", "node-link", "graphml"):
        with pytest.raises(LimitError, match=message):
            load_graph(save_graph(service_graph(), format).encode(), name="g", format=format, limits=limits)


def test_a_missing_file_is_a_load_error(tmp_path):
    with pytest.raises(LoadError, match="cannot be read"):
        load_graph_file(tmp_path / "absent.graphml")


@pytest.mark.parametrize("format", ONE_FILE_EXPORTS)
@cross_product(60)  # the codecs have their own property tests; this checks the loading path
@given(data=st.data())
def test_saving_then_loading_gives_the_same_graph(format, data):
    graph = data.draw(xml_safe_graphs if format == "graphml" else graphs())
    assert load_graph(save_graph(graph, format).encode("utf-8"), name="graph", format=format).sha256 == graph.sha256


def test_learning_graphs_round_trip_through_the_ckg_csv():
    graph = learning_graph(40, 3, seed=5)
    assert load_graph(save_graph(graph, "learning-graph").encode(), name="lg.csv") == graph


def test_a_schema_survives_node_link_but_is_not_part_of_the_hash():
    graph = transport_graph()
    loaded = load_graph(save_graph(graph, "node-link").encode(), name="t.json")
    assert loaded.schema == graph.schema
    assert load_graph(save_graph(graph, "graphml").encode(), name="t.graphml").sha256 == graph.sha256


def _comment_headed(comments: int, body: str) -> bytes:
    """A file shaped like the public air-routes GraphML: an XML declaration, then a block of comment lines."""
    line = "<!-- " + "Sample file containing selected air routes between selected airports. " + "-->\n"
    return ("<?xml version='1.0' ?>\n" + line * comments + body).encode()


GRAPHML_BODY = ("<graphml xmlns='http://graphml.graphdrawing.org/xmlns'><graph edgedefault='directed'>"
                "<node id='a'/><node id='b'/><edge source='a' target='b'/></graph></graphml>\n")
GEXF_BODY = ("<gexf xmlns='http://www.gexf.net/1.2draft' version='1.2'><graph defaultedgetype='directed'>"
             "<nodes><node id='a' label='A'/><node id='b' label='B'/></nodes>"
             "<edges><edge id='0' source='a' target='b'/></edges></graph></gexf>\n")


@pytest.mark.parametrize("comments", [24, 30, 47, 80, 500])
@pytest.mark.parametrize(("body", "expected"), [(GRAPHML_BODY, "graphml"), (GEXF_BODY, "gexf")])
def test_a_head_of_many_comments_is_detected_quickly(comments, body, expected):
    """D1: `(<!--.*?-->\\s*)*<gexf` backtracked exponentially here (30 comment lines: over 60 s)."""
    import time

    started = time.perf_counter()
    loaded = load(_comment_headed(comments, body), name="routes.dat")
    assert time.perf_counter() - started < 2.0
    assert (loaded.format, len(loaded.graph.nodes), len(loaded.graph.edges)) == (expected, 2, 1)


@pytest.mark.parametrize("format_name, name", [("graphml", "g.graphml"), ("gexf", "g.gexf"), ("gml", "g.gml"),
                                               ("pajek", "g.net"), ("node-link", "g.json"), ("csv", "g.csv"),
                                               ("jsonl", "g.jsonl"), ("yaml", "g.yaml")])
def test_a_utf8_byte_order_mark_changes_nothing(format_name, name):
    """D28: a BOM must never change what a reader sees (the lab's own GML with a BOM was read by the GML importer,
    with other types)."""
    from core.io.generate import service_graph

    data = save_graph(service_graph(5, 3, 1), format_name).encode()
    plain, marked = load(data, name=name), load(b"\xef\xbb\xbf" + data, name=name)
    assert (marked.format, marked.graph) == (plain.format, plain.graph)


def test_a_byte_order_mark_before_a_csv_header_changes_nothing():
    data = b"source,relation,target\na,reads,b\n"
    assert load(b"\xef\xbb\xbf" + data, name="e.csv").graph == load(data, name="e.csv").graph
