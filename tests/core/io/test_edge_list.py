"""CSV edge lists with optional nodes tables, and the spreadsheet-safe export."""

from __future__ import annotations

import pytest

from core.errors import GraphError, LoadError
from core.graph.model import Edge, Graph, Node
from core.io.edge_list import parse_edge_list, write_edge_list
from core.io.limits import Limits
from core.io.options import LoadOptions
from core.io.spreadsheet import neutralised


def test_an_edge_list_alone_creates_its_nodes_with_the_default_type():
    graph = parse_edge_list(b"source,target,weight\na,b,2\nb,a,\n", options=LoadOptions(default_relation="links"))
    assert graph.nodes == (Node("a", "node"), Node("b", "node"))
    assert graph.edges == (Edge("a", "links", "b", (("weight", "2"),)), Edge("b", "links", "a"))


def test_a_nodes_table_gives_types_and_properties_and_refuses_unknown_endpoints():
    nodes = b"id,type,team\na,service,core\nb,database,\n"
    graph = parse_edge_list(b"source,relation,target\na,reads,b\n", nodes=nodes)
    assert graph.nodes == (Node("a", "service", (("team", "core"),)), Node("b", "database"))
    with pytest.raises(LoadError, match="'c', which is not declared") as caught:
        parse_edge_list(b"source,relation,target\na,reads,c\n", nodes=nodes)
    assert "line 2" in str(caught.value)
    created = parse_edge_list(b"source,relation,target\na,reads,c\n", nodes=nodes,
                              options=LoadOptions(missing_endpoints="create", default_node_type="external"))
    assert created.node_by_id["c"].type == "external"


def test_duplicate_node_rows_follow_the_duplicates_policy():
    nodes = b"id,type,x\na,s,1\na,s,\n"
    with pytest.raises(LoadError, match="disagree"):
        parse_edge_list(b"source,target\na,a\n", nodes=nodes)
    merged = parse_edge_list(b"source,target\na,a\n", nodes=nodes, options=LoadOptions(duplicates="merge"))
    assert merged.nodes == (Node("a", "s", (("x", "1"),)),)


@pytest.mark.parametrize("value, cell", [
    ("=1+1", "'=1+1"), ("+cmd", "'+cmd"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("plain", "plain"), ("a=b", "a=b"), (-2, "-2"), (1.5, "1.5"), (True, "true"),
])
def test_formula_like_cells_are_neutralised(value, cell):
    assert neutralised(value) == cell


def test_the_export_is_two_spreadsheet_safe_tables():
    graph = Graph.build([Node("=a", "service", (("note", "@x"),)), Node("b", "db")],
                        [Edge("=a", "calls", "b", (("weight", 2),))])
    edges, nodes = write_edge_list(graph)
    assert edges == "source,relation,target,weight\r\n'=a,calls,b,2\r\n"
    assert nodes == "id,type,note\r\n'=a,service,'@x\r\nb,db,\r\n"


def test_a_property_named_like_a_fixed_column_is_refused_when_writing():
    with pytest.raises(GraphError, match="'type'"):
        write_edge_list(Graph.build([Node("a", "t", (("type", "x"),))], []))


def test_an_id_and_the_same_id_with_spaces_are_refused_naming_both():
    """N2: `a,a ,r` gave one node and a self-loop, silently: the trimmed id merged into another."""
    with pytest.raises(LoadError) as caught:
        parse_edge_list(b"source,target,relation\na,a ,r\n", source="e.csv")
    assert str(caught.value) == (
        "two ids become the same node 'a': 'a' (line 2, column 'source') and 'a ' (line 2, column 'target'), once "
        "the spaces around ids are stripped (at e.csv). Fix: write each id one way everywhere, or load with "
        "duplicates set to 'merge' (--duplicates merge) to read them as one node")


def test_spellings_across_the_nodes_table_are_checked_too():
    with pytest.raises(LoadError, match=r"' b' \(n.csv, line 3, column 'id'\)"):
        parse_edge_list(b"source,target\na,b\n", nodes=b"id\na\n b\n", nodes_source="n.csv")


def test_merging_spellings_is_a_choice_that_is_said():
    from core.errors import LoadNotice

    with pytest.warns(LoadNotice, match=r"e.csv: 1 id\(s\) written two ways were each read as one node \(once the "
                                        r"spaces around ids are stripped; duplicates 'merge'\): 'a' and 'a '"):
        graph = parse_edge_list(b"source,target\na,a \n", source="e.csv", options=LoadOptions(duplicates="merge"))
    assert graph.edges == (Edge("a", "related_to", "a"),)


def test_one_spelling_padded_the_same_everywhere_is_no_collision():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        graph = parse_edge_list(b"source,target\n a ,b\nb, a \n")
    assert [node.id for node in graph.nodes] == ["a", "b"]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("header, words", [
    ("source,target," + ",".join(f"c{index}" for index in range(500_000)), "the row has no field for the column(s) c0, c1, c2, c3, c4, c5, c6, c7, c8, c9… and 499,990 more"),
    (",".join(f"c{index}" for index in range(500_000)), "the header lacks the column(s) source, target"),
    ("source,target" + "," * 500_000, "column(s) 3, 4, 5, 6, 7, 8, 9, 10, 11, 12… and 499,990 more of the header"),
    ("source,target," + ",".join(["x"] * 500_000), "the header names the column(s) x more than once"),
])
def test_a_header_of_half_a_million_columns_gives_a_short_message(header, words):
    """N4: a CSV header of 500,000 columns gave an error line of 5 MB."""
    with pytest.raises(LoadError) as caught:
        parse_edge_list((header + "\na,b\n").encode(), limits=Limits(max_bytes=10_000_000))
    assert words in str(caught.value) and len(str(caught.value)) < 1_000
