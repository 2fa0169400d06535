"""A CSV edge list's columns can be mapped: `from,to` with a kind and the ends' types reads as a typed graph."""

from __future__ import annotations

import pytest

from core.errors import LoadError, ParameterError
from core.io.loading import load_graph
from core.io.options import LoadOptions

FROM_TO = b"from,to,kind,from_type,to_type,weight\napi,auth,calls,service,service,3\nauth,db,reads,service,database,\n"


def test_mapped_columns_read_ends_relation_types_and_keep_the_rest_as_properties():
    options = LoadOptions(source_column="from", target_column="to", relation_column="kind",
                          source_type_column="from_type", target_type_column="to_type")
    graph = load_graph(FROM_TO, name="edges.csv", options=options)
    assert {(node.id, node.type) for node in graph.nodes} == {("api", "service"), ("auth", "service"),
                                                              ("db", "database")}
    assert {(edge.source, edge.relation, edge.target, edge.properties) for edge in graph.edges} == {
        ("api", "calls", "auth", (("weight", "3"),)), ("auth", "reads", "db", ())}


def test_without_a_mapping_the_header_is_refused_with_the_edge_list_readers_reason_alone():
    with pytest.raises(LoadError) as refused:
        load_graph(FROM_TO, name="edges.csv")
    primary = refused.value.primary
    assert primary is not None and "lacks the column(s) source, target" in primary.what
    assert "other readers" not in str(primary) and "other readers" in str(refused.value)


def test_a_node_named_with_two_types_is_a_disagreeing_duplicate():
    data = b"a,b,ta,tb\nx,y,service,team\ny,z,service,team\n"
    options = LoadOptions(source_column="a", target_column="b", source_type_column="ta", target_type_column="tb")
    with pytest.raises(LoadError, match="y"):
        load_graph(data, name="edges.csv", options=options)
    assert len(load_graph(data, name="edges.csv", options=LoadOptions(
        source_column="a", target_column="b", source_type_column="ta", target_type_column="tb",
        duplicates="merge")).nodes) == 3


def test_one_column_cannot_be_mapped_twice():
    with pytest.raises(ParameterError, match="mapped twice"):
        LoadOptions(source_column="id", target_column="id")
