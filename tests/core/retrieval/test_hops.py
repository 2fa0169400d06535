"""Hop levels: BFS distance from the seeds per direction; edges take the larger endpoint distance."""

from __future__ import annotations

import math

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import ParameterError
from core.graph.hops import candidate_units, hop_distances, hop_units
from core.io.generate import service_graph
from tests.strategies import graphs

SERVICES = service_graph(6, 0, 7)


def test_distances_follow_the_chosen_direction():
    assert hop_distances(SERVICES, ["svc-auth"], "out") == {"svc-auth": 0, "db-identity": 1, "team-core": 1}
    assert hop_distances(SERVICES, ["svc-auth"], "in") == {"svc-auth": 0, "svc-api": 1, "svc-profile": 1,
                                                           "svc-web": 2}
    both = hop_distances(SERVICES, ["svc-auth"], "both")
    assert both["team-growth"] == 2 and both["svc-web"] == 2 and "svc-noise-0000" not in both


def test_units_get_node_distances_edge_maxima_and_infinity_when_unreachable():
    units = {unit.key: unit.hop for unit in hop_units(SERVICES, ["db-identity"], "in")}
    assert units["n:db-identity"] == 0 and units["n:svc-web"] == 3
    assert units["e:svc-auth|depends_on|db-identity"] == 1
    assert units["e:svc-web|owned_by|team-growth"] == math.inf  # teams are not upstream of the database
    assert units["n:svc-noise-0000"] == math.inf


def test_candidate_units_are_those_within_k_hops():
    units = hop_units(SERVICES, ["db-identity"], "both")
    within_one = {unit.key for unit in candidate_units(units, 1)}
    assert within_one == {"n:db-identity", "n:svc-auth", "e:svc-auth|depends_on|db-identity"}


def test_bad_seeds_and_directions_are_refused():
    with pytest.raises(ParameterError):
        hop_distances(SERVICES, ["nope"])
    with pytest.raises(ParameterError):
        hop_distances(SERVICES, ["svc-api"], "sideways")


def test_max_hops_stops_the_search():
    assert set(hop_distances(SERVICES, ["db-identity"], "in", max_hops=1)) == {"db-identity", "svc-auth"}


@given(graph=graphs(with_properties=False), data=st.data())
def test_distances_agree_with_networkx(graph, data):
    seeds = data.draw(st.lists(st.sampled_from([node.id for node in graph.nodes]), min_size=1, max_size=2))
    direction = data.draw(st.sampled_from(["out", "in", "both"]))
    reference = graph.to_networkx()
    if direction == "in":
        reference = reference.reverse()
    elif direction == "both":
        reference = reference.to_undirected()
    expected = nx.multi_source_dijkstra_path_length(reference, set(seeds), weight=lambda *_: 1)
    assert hop_distances(graph, seeds, direction) == expected
