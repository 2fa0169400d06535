"""Units: one per node and one per edge, keyed so that parallel copies of a triple stay apart."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.graph.model import Edge, Graph, Node
from core.graph.units import UNREACHABLE, edge_keys, graph_units

IDS = st.sampled_from(["a", "b", "a|b", "c\\", "d\\p"])  # "|" and "\" must be escaped to keep keys apart


def test_parallel_copies_of_a_triple_are_numbered_in_canonical_order():
    graph = Graph.build([Node("a", "t"), Node("b|c", "t")],
                        [Edge("a", "r", "b|c"), Edge("a", "s", "a"), Edge("a", "r", "b|c", (("w", 1),)),
                         Edge("a", "r", "b|c")])
    assert [unit.key for unit in graph_units(graph)] == [
        "n:a", "n:b|c", "e:a|r|b\\pc", "e:a|r|b\\pc|1", "e:a|r|b\\pc|2", "e:a|s|a"]


def test_a_graph_without_hops_has_every_unit_unreachable():
    graph = Graph.build([Node("a", "t"), Node("b", "t")], [Edge("a", "r", "b")])
    assert [unit.hop for unit in graph_units(graph)] == [UNREACHABLE] * 3


@given(st.lists(st.tuples(IDS, st.sampled_from(["r", "r|s"]), IDS), max_size=12))
def test_edge_keys_are_unique_and_number_each_copy_by_the_copies_before_it(triples):
    nodes = [Node(node_id, "t") for node_id in {end for source, _, target in triples for end in (source, target)}]
    graph = Graph.build(nodes, [Edge(*triple) for triple in triples])
    keys = [key for key, _ in edge_keys(graph)]
    assert len(set(keys)) == len(keys)
    for index, (key, edge) in enumerate(edge_keys(graph)):
        earlier = sum((other.source, other.relation, other.target) == (edge.source, edge.relation, edge.target)
                      for other in graph.edges[:index])
        # ids and relations have their "|" escaped, so the raw ones separate: three parts, then any copy number
        assert key.count("|") == (3 if earlier else 2) and key.endswith(f"|{earlier}" if earlier else "")
