"""Property filtering: names and wildcards, per kind, include then exclude; ids, types and relations stay."""

from __future__ import annotations

import pytest

from core.errors import ParameterError
from core.graph.model import Edge, Graph, Node
from core.graph.property_filter import PropertyFilter, dropped_properties, filter_properties, restoring

GRAPH = Graph.build(
    [Node("a", "doc", (("label", "A"), ("embedding", "[0.1, 0.2]"), ("embedding_model", "m"))),
     Node("b", "doc", (("label", "B"), ("owner_id", "7")))],
    [Edge("a", "cites", "b", (("weight", 2), ("label", "cites strongly")))])


def names(graph):
    return ([sorted(name for name, _ in node.properties) for node in graph.nodes],
            [sorted(name for name, _ in edge.properties) for edge in graph.edges])


def test_a_wildcard_drops_every_matching_property_of_both_kinds():
    assert names(filter_properties(GRAPH, PropertyFilter(exclude=("embedding*",)))) == \
        ([["label"], ["label", "owner_id"]], [["label", "weight"]])


def test_a_kind_prefix_limits_the_pattern_to_nodes_or_edges():
    assert names(filter_properties(GRAPH, PropertyFilter(exclude=("edge:label",)))) == \
        ([["embedding", "embedding_model", "label"], ["label", "owner_id"]], [["weight"]])


def test_include_keeps_only_what_it_names_then_exclude_drops():
    chosen = PropertyFilter(include=("label", "edge:*"), exclude=("edge:weight",))
    assert names(filter_properties(GRAPH, chosen)) == ([["label"], ["label"]], [["label"]])
    assert dropped_properties(GRAPH, chosen) == (("edge", "weight"), ("node", "embedding"),
                                                 ("node", "embedding_model"), ("node", "owner_id"))


def test_ids_types_and_relations_are_never_filtered():
    filtered = filter_properties(GRAPH, PropertyFilter(include=("nothing",)))
    assert [(node.id, node.type) for node in filtered.nodes] == [("a", "doc"), ("b", "doc")]
    assert [(edge.source, edge.relation, edge.target) for edge in filtered.edges] == [("a", "cites", "b")]
    assert filter_properties(GRAPH, PropertyFilter()) is GRAPH


def test_restoring_keeps_exactly_one_property_again():
    chosen = restoring(PropertyFilter(exclude=("*",)), "node", "label")
    assert names(filter_properties(GRAPH, chosen)) == ([["label"], ["label"]], [[]])


def test_a_pattern_is_a_wildcard_not_a_regular_expression():
    assert PropertyFilter(exclude=("(a+)+$",)).keeps("node", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")
    with pytest.raises(ParameterError, match="empty property pattern"):
        PropertyFilter(exclude=("node:",))
