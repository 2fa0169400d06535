"""CSV edge lists with optional nodes tables, and the spreadsheet-safe export."""

from __future__ import annotations

import pytest

from core.errors import GraphError, LoadError
from core.graph.model import Edge, Graph, Node
from core.io.edge_list import parse_edge_list, write_edge_list
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
