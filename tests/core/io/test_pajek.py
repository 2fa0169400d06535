"""Pajek .net: networks read through networkx after a linear count check; export keeps ids, types and relations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import GraphError, LoadError
from core.graph.model import Graph
from core.io import load, save_graph
from core.io.generate import service_graph
from core.io.limits import Limits
from core.io.pajek import parse_pajek, write_pajek
from tests.hypothesis_profiles import examples
from tests.strategies import graphs

# The shape of networkx's own test network (networkx/readwrite/tests/test_pajek.py).
NETWORKX_TEST = b"""*network Tralala
*vertices 4
   1 "A1"         0.0938 0.0896   ellipse x_fact 1 y_fact 1
   2 "Bb"         0.8188 0.2458   ellipse x_fact 1 y_fact 1
   3 "C"          0.3688 0.7792   ellipse x_fact 1
   4 "D2"         0.9583 0.8563   ellipse x_fact 1
*arcs
1 1 1  h2 0 w 3 c Blue s 3 a1 -130 k1 0.6 a2 -130 k2 0.6 ap 0.5 l "Bezier loop" lc BlueViolet fos 20 lr 58 lp 0.3 la 360
2 1 1  h2 0 a1 120 k1 1.3 a2 -120 k2 0.3 ap 25 l "Bezier arc" lphi 270 la 180 lr 19 lp 0.5
1 2 1  h2 0 a1 40 k1 2.8 a2 30 k2 0.8 ap 25 l "Bezier arc" lphi 90 la 0 lp 0.65
4 2 -1  h2 0 w 1 k1 -2 k2 250 ap 25 l "Circular arc" c Red lc OrangeRed
3 4 1  p Dashed h2 0 w 2 c OliveGreen ap 25 l "Straight arc" lc PineGreen
1 3 1  p Dashed h2 0 w 5 k1 -1 k2 -20 ap 25 l "Oval arc" c Brown lc Black
3 3 -1  h1 6 w 1 h2 12 k1 -2 k2 -15 ap 0.5 l "Circular loop" c Red lc OrangeRed lphi 270 la 180
"""


def test_networkx_test_network_reads_with_labels_as_ids_and_arcs_as_edges():
    graph = parse_pajek(NETWORKX_TEST)
    assert [node.id for node in graph.nodes] == ["A1", "Bb", "C", "D2"]
    assert dict(graph.nodes[0].properties) == {"shape": "ellipse", "x": 0.0938, "x_fact": "1", "y": 0.0896,
                                               "y_fact": "1"}
    assert len(graph.edges) == 7
    loop = next(edge for edge in graph.edges if edge.source == edge.target == "A1")
    assert loop.relation == "Bezier loop" and dict(loop.properties)["c"] == "Blue"


def test_undirected_edges_come_both_ways_and_detection_finds_pajek():
    text = b"*Vertices 2\n1 a\n2 b\n*Edges\n1 2 3\n"
    loaded = load(text, name="net.txt")
    assert loaded.format == "pajek"
    assert [(e.source, e.target, dict(e.properties)) for e in loaded.graph.edges] == [
        ("a", "b", {"weight": 3.0}), ("b", "a", {"weight": 3.0})]


def test_export_reads_back_as_the_same_graph():
    graph = service_graph()
    text = save_graph(graph, "pajek")
    assert text.startswith("*vertices 43") and parse_pajek(text.encode()) == graph


@settings(max_examples=examples(150, 50))
@given(graph=graphs(with_properties=False))
def test_any_graph_without_properties_either_round_trips_or_is_refused(graph: Graph):
    try:
        text = write_pajek(graph)
    except GraphError as error:
        assert "Pajek" in str(error)
        return
    assert parse_pajek(text.encode()) == graph


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text, words", [
    (b"*Vertices 100000000\n1 a\n", "100,000,000 nodes, the limit is 50,000"),
    (b"*Vertices 3\n1 a\n", "declares 3 nodes but only 1 line(s) follow"),
    (b"*Vertices x\n", "is not a whole number"),
    (b'*Vertices 1\n1 "unclosed\n', "No closing quotation"),
    (b"just text\n", "no *Vertices"),
])
def test_hostile_pajek_is_refused_with_the_cause(text, words):
    with pytest.raises(LoadError, match="Fix:") as caught:
        parse_pajek(text, source="n.net")
    assert words in str(caught.value)


@pytest.mark.timeout(30)
def test_edge_lines_over_the_limit_are_refused_before_networkx_reads_them():
    text = b"*Vertices 2\n1 a\n2 b\n*Arcs\n" + b"1 2\n" * 300_000
    with pytest.raises(LoadError, match="300,000 edges, the limit is 200,000"):
        parse_pajek(text, limits=Limits(max_bytes=len(text)))


def test_repeated_labels_and_undeclared_numbers_follow_the_load_policies():
    from core.io.options import LoadOptions
    twice = b"*Vertices 2\n1 a\n2 a\n*Arcs\n1 2\n"
    with pytest.raises(LoadError, match="1 of the 2 vertices repeat the label of another"):
        parse_pajek(twice)
    assert [node.id for node in parse_pajek(twice, options=LoadOptions(duplicates="merge")).nodes] == ["a"]
    dangling = b"*Vertices 2\n1 a\n2 b\n*Arcs\n1 3\n"
    with pytest.raises(LoadError, match="node '3', which is not declared"):
        parse_pajek(dangling)
    assert len(parse_pajek(dangling, options=LoadOptions(missing_endpoints="create")).nodes) == 3


def test_a_two_mode_network_is_read_as_one_mode_with_a_notice():
    """D20: igraph's bipartite Pajek files (*Vertices 13 8) failed with "too many values to unpack"."""
    from core.errors import LoadNotice

    text = b'*Vertices 3 2\n1 "a"\n2 "b"\n3 "c"\n*Edges\n1 3\n2 3\n'
    with pytest.warns(LoadNotice, match=r"two-mode network \(\*Vertices 3 2\): read as one mode"):
        graph = parse_pajek(text)
    assert [node.id for node in graph.nodes] == ["a", "b", "c"] and len(graph.edges) == 4  # *Edges: both ways


def test_lf_cr_line_ends_read_every_edge():
    """D20: LF+CR line ends left a blank line after every line: "not enough values to unpack"; networkx itself
    read 10 nodes and 0 edges of igraph's file."""
    text = b'*Vertices 3\n\r1 "a"\n\r2 "b"\n\r3 "c"\n\r*Arcs\n\r1 2\n\r2 3\n\r'
    graph = parse_pajek(text)
    assert len(graph.nodes) == 3 and [(edge.source, edge.target) for edge in graph.edges] == [("a", "b"), ("b", "c")]


def test_a_line_with_the_wrong_fields_is_said_in_the_projects_words():
    with pytest.raises(LoadError) as caught:
        parse_pajek(b'*Vertices 2 x\n1 "a"\n2 "b"\n')
    assert "unpack" not in str(caught.value) and "more or fewer fields" in str(caught.value)


def test_a_vertex_line_with_a_z_coordinate_follows_networkxs_rule():
    """D28 (documented as right): fields after the coordinates pair up as networkx pairs them."""
    graph = parse_pajek(b'*Vertices 1\n1 "Vlado" 0.46 0.48 0.5 ellipse foo bar\n')
    assert dict(graph.nodes[0].properties) == {"x": 0.46, "y": 0.48, "shape": "0.5", "ellipse": "foo"}


@pytest.mark.timeout(10)
def test_a_ten_megabyte_label_is_refused_within_a_second():
    """N1: one label of 10 MB ran for minutes: networkx's shlex splitting grows a field one character at a time."""
    import time

    text = b'*Vertices 2\n1 "' + b"P" * 10**7 + b'"\n2 "b"\n*Arcs\n1 2 1\n'
    started = time.perf_counter()
    with pytest.raises(LoadError) as caught:
        parse_pajek(text, source="p.net")
    assert time.perf_counter() - started < 2
    assert "a text value is too long: 10,000,000 characters, the limit is 100,000 (at p.net, line 2)" in str(caught.value)


@pytest.mark.timeout(20)
def test_long_fields_within_the_limit_read_in_linear_time():
    """100,000 characters took shlex 0.6 s per field: 150 such labels would have run for a minute and a half."""
    import time

    count = 150
    text = (f"*Vertices {count}\n".encode() + b"".join(f'{number} "{number}'.encode() + b"x" * 99_990 + b'"\n'
                                                       for number in range(1, count + 1)) + b"*Arcs\n1 2\n")
    started = time.perf_counter()
    graph = parse_pajek(text, limits=Limits(max_bytes=len(text)))
    assert len(graph.nodes) == count and time.perf_counter() - started < 5


_SHELL_TEXT = st.text(alphabet=["a", "b", " ", "\t", '"', "'", "\\", "é"], max_size=30)


@settings(max_examples=examples(500, 100))
@given(line=_SHELL_TEXT)
def test_fields_split_as_shlex_splits_them(line):
    """The linear splitter gives shlex.split's fields, or fails where it fails."""
    import shlex

    from core.io.pajek_text import split_fields

    try:
        expected = shlex.split(line)
    except ValueError:
        with pytest.raises(ValueError):
            split_fields(line)
        return
    assert split_fields(line) == expected


@settings(max_examples=examples(150, 40))
@given(lines=st.lists(st.tuples(st.sampled_from(["a", "b c", "d'e", "f\\\"g", "h\\\\i", ""]),
                                st.sampled_from(["", " 0.1 0.2 box", " 1 2 3", " x_fact 2", " 0.5 0.5 ellipse k v"])),
                      min_size=1, max_size=5, unique_by=lambda pair: pair[0]),
       arcs=st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5), st.sampled_from(["", " 2", " 1 l rel"])),
                     max_size=6))
def test_networks_read_as_networkx_reads_them(lines, arcs):
    """The same nodes, attributes and edges as networkx's parse_pajek, on networks it reads right."""
    import warnings

    import networkx as nx

    from core.io.pajek_text import read_network

    count = len(lines)
    text = f"*Vertices {count}\n" + "".join(f'{number} "{label}"{rest}\n' for number, (label, rest) in
                                            enumerate(lines, start=1))
    text += "*Arcs\n" + "".join(f"{start} {end}{rest}\n" for start, end, rest in arcs if max(start, end) <= count)
    expected = nx.parse_pajek(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = read_network(text.split("\n"), list(range(1, text.count("\n") + 2)), "n.net", Limits()).graph
    assert dict(got.nodes(data=True)) == dict(expected.nodes(data=True))
    assert sorted(map(repr, got.edges(data=True))) == sorted(map(repr, expected.edges(data=True)))


def test_a_byte_order_mark_changes_nothing():
    """D28: igraph's UTF-8-with-BOM Pajek test: the mark is dropped before the first line is read."""
    text = b'*Vertices 2\n1 "Vlado" 0.46 0.48 box\n2 "b"\n*Arcs\n1 2\n'
    assert parse_pajek(b"\xef\xbb\xbf" + text) == parse_pajek(text)


def test_vertex_fields_moved_or_dropped_by_the_rule_are_said():
    """D28: `1 "Vlado" 0.46 0.48 0.5 ellipse foo bar` kept shape "0.5" and ellipse "foo" and dropped bar, silently."""
    from core.errors import LoadNotice

    text = b'*Vertices 3\n1 "Vlado" 0.46 0.48 0.5 ellipse foo bar\n2 "b" 0.1 0.2\n3 "c" 0.1 0.2 box\n'
    with pytest.warns(LoadNotice) as caught:
        parse_pajek(text, source="v.net")
    words = str(caught[0].message)
    assert words.startswith("v.net: 1 vertex line(s) give a number where the shape goes")
    assert "(first at line 2)" in words and "2 vertex line(s) have fields networkx's rule drops" in words


def test_an_ordinary_vertex_line_gives_no_notice():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parse_pajek(b'*Vertices 2\n1 "a" 0.1 0.2 box x_fact 2\n2 "b"\n*Arcs\n1 2 1\n')


def test_undirected_edges_are_said_with_their_counts():
    """N5: *Edges were read as two arcs each with no notice."""
    from core.errors import LoadNotice

    with pytest.warns(LoadNotice, match=r"e.net: the file declares an undirected graph \(\*Edges\): its 2 edges were "
                                        r"read as 3 directed edges, one each way \(self-loops once: 1\)"):
        parse_pajek(b"*Vertices 2\n1 a\n2 b\n*Edges\n1 2\n2 2\n", source="e.net")


def test_a_mixed_network_keeps_its_arcs_and_its_edges():
    """networkx read every line after *Arcs as an arc, so a following *Edges section lost its direction."""
    from core.errors import LoadNotice

    with pytest.warns(LoadNotice, match=r"1 of its 2 edges are undirected \(\*Edges\): read as 2 directed edges"):
        graph = parse_pajek(b"*Vertices 3\n1 a\n2 b\n3 c\n*Arcs\n1 2\n*Edges\n2 3\n")
    assert [(edge.source, edge.target) for edge in graph.edges] == [("a", "b"), ("b", "c"), ("c", "b")]


def test_arcs_without_vertices_follow_the_missing_endpoints_policy():
    """`*Arcs` with no *Vertices section was a traceback (networkx: UnboundLocalError)."""
    from core.io.options import LoadOptions

    with pytest.raises(LoadError, match="node '1', which is not declared"):
        parse_pajek(b"*Arcs\n1 2\n")
    assert len(parse_pajek(b"*Arcs\n1 2\n", options=LoadOptions(missing_endpoints="create")).edges) == 1


_QUOTING = ['"', "'", "\\", '\\"', '"a', "a'", '"\\', " \"", "a", " ", "\t", '""', "\\\\"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("unit", _QUOTING + ['"a b', "'a b", 'x"y"', "a\\ "])
@pytest.mark.parametrize("ending", ["", '"', "'", "\\", "!"])
def test_the_field_patterns_never_backtrack(unit, ending):
    """The splitter's regexes see every line of an untrusted file: runs of quotes, escapes and spaces of 100,000
    characters, with every ending (an unclosed quote, a trailing backslash), are split or refused at once."""
    assert _splits_quickly("1 " + unit * (100_000 // len(unit)) + ending), unit


@settings(max_examples=examples(60, 20))
@given(units=st.lists(st.sampled_from(_QUOTING), min_size=1, max_size=3), ending=st.sampled_from(["", '"', "\\", "'"]))
def test_the_field_patterns_on_mixed_runs_finish_quickly(units, ending):
    unit = "".join(units)
    assert _splits_quickly(unit * (50_000 // len(unit)) + ending)


def _splits_quickly(text: str) -> bool:
    """Split (or refused) within 2 s, twice tried: a backtracking pattern is slow every time, a busy machine
    only sometimes."""
    import contextlib
    import time

    from core.io.pajek_text import split_fields

    for _ in range(2):
        started = time.perf_counter()
        with contextlib.suppress(ValueError):  # an unclosed quote is refused: a quick answer too
            split_fields(text)
        if time.perf_counter() - started < 2:
            return True
    return False
