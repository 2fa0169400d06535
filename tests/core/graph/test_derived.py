"""Values derived from a graph are built once per graph object and dropped with it."""

import gc
import weakref

from core.graph.derived import derived
from core.graph.hops import hop_distances
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units


def small_graph() -> Graph:
    return Graph.build([Node("a", "Service"), Node("b", "Service")], [Edge("a", "calls", "b")])


def test_a_value_is_built_once_per_graph_object():
    graph, builds = small_graph(), []
    first = derived(graph, "answer", lambda: builds.append(1) or [42])
    again = derived(graph, "answer", lambda: builds.append(1) or [0])
    assert first is again and first == [42] and builds == [1]
    assert derived(small_graph(), "answer", lambda: [7]) == [7]  # another object, even with equal content


def test_values_go_with_their_graph_and_leave_its_equality_alone():
    graph = small_graph()
    derived(graph, "answer", lambda: [42])
    assert graph == small_graph() and hash(graph) == hash(small_graph()) and "answer" not in repr(graph)
    watched = weakref.ref(graph)
    del graph
    gc.collect()
    assert watched() is None  # nothing module-wide kept the graph (or its memo) alive


def test_units_without_hops_are_shared_and_hops_still_apply():
    graph = small_graph()
    assert graph_units(graph) is graph_units(graph, {})
    reached = graph_units(graph, hop_distances(graph, ["a"]))
    assert [unit.hop for unit in reached] == [0, 1, 1]
    assert [unit.key for unit in reached] == [unit.key for unit in graph_units(graph)]


def test_no_seeds_reach_nothing():
    assert hop_distances(small_graph(), []) == {}
