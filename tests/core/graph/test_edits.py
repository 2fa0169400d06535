"""Graph edits: each kind changes exactly one thing of the original graph, and the seed reproduces it."""

from __future__ import annotations

import pytest

from core.errors import ParameterError
from core.graph.edits import EDIT_KINDS, GraphEdit, draw_edit, draw_edits, edit_seeds, touched
from core.graph.model import Edge, Graph, Node
from core.graph.units import edge_keys, graph_units

GRAPH = Graph.build([Node("a", "service", (("tier", "web"),)), Node("b", "service", (("port", 80),)),
                     Node("c", "team", (("on_call", True),)), Node("d", "service")],
                    [Edge("a", "calls", "b"), Edge("b", "calls", "d", (("weight", 0.5),)),
                     Edge("c", "owns", "a")])


def edit_of_kind(kind: str, graph: Graph = GRAPH) -> GraphEdit:
    return next(edit for edit in draw_edits(graph, 60) if edit.kind == kind)


def keys(graph: Graph) -> set[str]:
    return {unit.key for unit in graph_units(graph)}


def test_an_added_node_is_a_linked_sibling_whose_id_sorts_after_it():
    edit = edit_of_kind("add_node")
    (added,) = set(edit.graph.node_by_id) - set(GRAPH.node_by_id)
    sibling = GRAPH.node_by_id[added.split("-added-")[0]]
    assert edit.graph.node_by_id[added].type == sibling.type
    assert edit.graph.node_by_id[added].properties == sibling.properties
    assert len(edit.graph.edges) == len(GRAPH.edges) + 1
    assert keys(edit.graph) - keys(GRAPH) == set(edit.unit_keys)
    assert keys(GRAPH) <= keys(edit.graph)


def test_a_removed_edge_is_the_only_unit_missing():
    edit = edit_of_kind("remove_edge")
    assert keys(GRAPH) - keys(edit.graph) == set(edit.unit_keys)
    assert len(edit.unit_keys) == 1 and edit.graph.nodes == GRAPH.nodes


def test_a_changed_property_changes_one_value_and_keeps_every_unit():
    edit = edit_of_kind("change_property")
    assert keys(edit.graph) == keys(GRAPH)
    changed = [(before.key, after) for before, after in zip(graph_units(GRAPH), graph_units(edit.graph))
               if (before.node or before.edge) != (after.node or after.edge)]
    assert [key for key, _ in changed] == sorted(edit.unit_keys)
    assert "->" in edit.what


def test_new_values_follow_the_old_values_type():
    seen = {edit.what.split(": ")[1] for edit in draw_edits(GRAPH, 60) if edit.kind == "change_property"}
    assert seen == {"'web' -> 'web (edited)'", "80 -> 81", "True -> False", "0.5 -> 1.5"}


def test_a_graph_without_properties_gets_one_and_one_without_edges_loses_none():
    bare = Graph.build([Node("x", "t"), Node("y", "t")], [])
    edits = draw_edits(bare, 20)
    assert {edit.kind for edit in edits} == {"add_node", "change_property"}
    assert all(dict(edit.graph.node_by_id[key[2:]].properties) == {"edited": True}
               for edit in edits if edit.kind == "change_property" for key in edit.unit_keys)


def test_every_kind_is_drawn_and_the_seed_reproduces_each_edit_alone():
    edits = draw_edits(GRAPH, 30, edit_seed=11)
    assert {edit.kind for edit in edits} == set(EDIT_KINDS)
    assert [edit.seed for edit in edits] == list(edit_seeds(30, 11)) == list(range(11, 41))
    again = draw_edit(GRAPH, 17)
    assert again == edits[6] and again.graph == edits[6].graph
    assert [edit.as_dict() for edit in draw_edits(GRAPH, 30, edit_seed=11)] == [edit.as_dict() for edit in edits]
    assert [edit.as_dict() for edit in draw_edits(GRAPH, 30, edit_seed=12)] != [edit.as_dict() for edit in edits]


def test_the_original_graph_is_untouched():
    before = GRAPH.canonical_text
    draw_edits(GRAPH, 30)
    assert GRAPH.canonical_text == before


def test_an_edit_touches_a_rendering_only_through_its_units():
    edit = edit_of_kind("remove_edge")
    (key,) = edit.unit_keys
    assert touched(edit, (frozenset({key}), frozenset()))
    assert not touched(edit, (frozenset(dict(edge_keys(GRAPH))) - {key}, frozenset({"n:a"})))


@pytest.mark.parametrize("count", [0, -1, 1_001, True])
def test_the_edit_count_is_checked(count):
    with pytest.raises(ParameterError):
        draw_edits(GRAPH, count)


def test_an_empty_graph_has_nothing_to_edit():
    with pytest.raises(ParameterError, match="nothing to edit"):
        draw_edit(Graph.build([], []), 0)
