"""Orderings and layouts: permutations of the units, deterministic, the same for every format."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.hops import candidate_units, hop_units
from core.io.generate import service_graph
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS, OrderingInputs, inputs_for, layouts_for, order_units, rendering_seeds
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

SERVICES = service_graph(12, 14, 7)
SEEDED = OrderingInputs(seeds=("db-identity",), evidence=frozenset({"n:svc-web", "e:svc-web|owned_by|team-growth"}),
                        shuffle_seed=11)


def keys(ordering: str, layout: str = "nodes_then_edges", inputs: OrderingInputs = SEEDED, graph=SERVICES):
    units = hop_units(graph, inputs.seeds or [graph.nodes[0].id], inputs.direction)
    return [unit.key for unit in order_units(graph, units, ORDERINGS.get(ordering), layout, inputs)]


def test_canonical_lists_nodes_by_key_then_edges_by_key():
    ordered = keys("canonical")
    nodes = [key for key in ordered if key.startswith("n:")]
    assert ordered == nodes + sorted(set(ordered) - set(nodes)) and nodes == sorted(nodes)


def test_interleaved_canonical_puts_each_node_before_the_edges_that_close_on_it():
    ordered = keys("canonical", "interleaved")
    assert ordered[:3] == ["n:db-identity", "n:svc-api", "n:svc-auth"]
    assert ordered[3] == "e:svc-api|depends_on|svc-auth" and ordered[4] == "e:svc-auth|depends_on|db-identity"


def test_shuffled_is_reproducible_from_its_seed_and_changes_with_it():
    assert keys("shuffled") == keys("shuffled")
    other = OrderingInputs(seeds=("db-identity",), shuffle_seed=12)
    assert keys("shuffled", inputs=other) != keys("shuffled")


def test_evidence_first_puts_the_evidence_first_and_is_labelled_an_oracle():
    ordered = keys("evidence_first")
    assert ordered[0] == "n:svc-web" and ordered.index("e:svc-web|owned_by|team-growth") == \
        sum(1 for key in ordered if key.startswith("n:"))
    assert ORDERINGS.get("evidence_first").oracle and "oracle" in ORDERINGS.get("evidence_first").title.lower()
    assert not any(ORDERINGS.get(name).oracle for name in ORDERINGS if name != "evidence_first")


def test_breadth_first_starts_at_the_seeds():
    ordered = keys("bfs_from_seeds")
    assert ordered[:2] == ["n:db-identity", "n:svc-auth"]


def test_hop_tiers_sort_by_hop_then_nodes_before_edges_then_key():
    units = {unit.key: unit for unit in hop_units(SERVICES, ["db-identity"])}
    ordered = keys("hop_tiers")
    hops = [units[key].hop for key in ordered if key.startswith("n:")]
    assert hops == sorted(hops)


def test_seed_orderings_need_seeds():
    units = hop_units(SERVICES, [])
    for name in ("hop_tiers", "bfs_from_seeds", "personalized_pagerank"):
        with pytest.raises(ParameterError):
            order_units(SERVICES, units, ORDERINGS.get(name), "interleaved", OrderingInputs())


def test_unknown_layouts_and_orderings_are_refused_with_the_known_names():
    with pytest.raises(ParameterError):
        keys("canonical", "diagonal")
    with pytest.raises(KeyError) as raised:
        ORDERINGS.get("alphabetical")
    assert "hop_tiers" in str(raised.value)


@pytest.mark.parametrize("name", ORDERINGS.names())
@cross_product(300)
@given(graph=graphs(with_properties=False), data=st.data())
def test_every_ordering_is_a_deterministic_permutation_and_interleaving_never_orphans_an_edge(name, graph, data):
    check_permutation(name, graph, data)


# The +ends variants reorder what the checked orderings rank: fewer examples keep the suite's time modest.
@pytest.mark.parametrize("name", ORDERINGS.ends_names())
@cross_product(40)
@given(graph=graphs(with_properties=False), data=st.data())
def test_every_ends_variant_is_a_deterministic_permutation_too(name, graph, data):
    check_permutation(name, graph, data)


def check_permutation(name, graph, data):
    ids = [node.id for node in graph.nodes]
    seeds = tuple(data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=2)))
    inputs = OrderingInputs(seeds=seeds, evidence=frozenset(data.draw(st.sets(st.sampled_from(
        [unit.key for unit in hop_units(graph, seeds)])))), shuffle_seed=data.draw(st.integers(0, 9)),
        direction=data.draw(st.sampled_from(["out", "in", "both"])),
        question="which nodes are linked to " + " and ".join(data.draw(st.lists(st.sampled_from(ids), max_size=2))))
    units = hop_units(graph, seeds, inputs.direction)
    for layout in LAYOUTS:
        ordered = order_units(graph, units, ORDERINGS.get(name), layout, inputs)
        assert sorted(unit.key for unit in ordered) == sorted(unit.key for unit in units)
        assert ordered == order_units(graph, tuple(reversed(units)), ORDERINGS.get(name), layout, inputs)
    written: set[str] = set()
    for unit in order_units(graph, units, ORDERINGS.get(name), "interleaved", inputs):
        if unit.is_node:
            written.add(unit.node.id)
        else:
            assert {unit.edge.source, unit.edge.target} <= written


@given(graph=graphs(with_properties=False), data=st.data())
def test_interleaved_hop_tiers_make_every_candidate_set_a_prefix(graph, data):
    seeds = tuple(data.draw(st.lists(st.sampled_from([node.id for node in graph.nodes]), min_size=1, max_size=2)))
    units = hop_units(graph, seeds)
    ordered = order_units(graph, units, ORDERINGS.get("hop_tiers"), "interleaved", OrderingInputs(seeds=seeds))
    for k in range(len(graph.nodes)):
        candidates = {unit.key for unit in candidate_units(units, k)}
        assert {unit.key for unit in ordered[:len(candidates)]} == candidates


def test_a_format_with_separate_sections_offers_only_nodes_then_edges():
    sectioned = [name for name in FORMATS if not FORMATS.get(name).interleaves]
    assert sectioned, "the reference JSON formats keep nodes and edges apart"
    for name in FORMATS:
        expected = LAYOUTS if name not in sectioned else ("nodes_then_edges",)
        assert layouts_for(FORMATS.get(name)) == expected


def _rendered_text(graph, format_name: str, ordering_name: str, seeds: tuple[str, ...]) -> str:
    ordering = ORDERINGS.get(ordering_name)
    units = hop_units(graph, seeds)
    ordered = order_units(graph, units, ordering, "nodes_then_edges", inputs_for(ordering, seeds))
    return FORMATS.get(format_name).render(graph, ordered).text


def test_a_rendering_ignores_the_seeds_unless_its_ordering_or_format_uses_them():
    graph = service_graph(services=12, noise_edges=6, seed=3)
    seeds = (sorted(node.id for node in graph.nodes)[0],)
    canonical = ORDERINGS.get("canonical")
    for name in FORMATS.names():
        format_ = FORMATS.get(name)
        kept = rendering_seeds(format_.uses_hops, canonical, seeds)
        # The flag is right: dropping the seeds gives the same text exactly where the key drops them.
        assert (_rendered_text(graph, name, "canonical", seeds) == _rendered_text(graph, name, "canonical", ())) \
            == (kept == ()), name
    assert rendering_seeds(False, ORDERINGS.get("hop_tiers"), seeds) == seeds
