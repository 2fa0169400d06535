"""What part of a graph the dashboard draws, and where."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given

from core.errors import ParameterError
from core.graph.model import Edge, Graph, Node
from core.graph.view import PHYSICS_NODE_LIMIT, layout_positions, select_view
from core.io.generate import service_graph
from tests.strategies import graphs


def chain(length: int) -> Graph:
    nodes = [Node(f"n{index:03d}", "step") for index in range(length)]
    edges = [Edge(f"n{index:03d}", "next", f"n{index + 1:03d}") for index in range(length - 1)]
    return Graph.build(nodes, edges)


def test_a_small_graph_is_shown_whole():
    graph = service_graph(40, 80, 7)
    view = select_view(graph, {"db-identity": 0})
    assert view.complete and len(view.node_ids) == 43 and len(view.edges) == len(graph.edges)
    assert view.full_radius == math.inf


def test_a_large_graph_shows_whole_hop_tiers_nearest_the_seeds_first():
    graph = chain(500)
    hops = {f"n{index:03d}": abs(index - 250) for index in range(500)}  # seed in the middle
    view = select_view(graph, hops, cap=300)
    assert len(view.node_ids) == 300 and not view.complete
    assert {hops[node_id] for node_id in view.node_ids} == set(range(150)) | {150}
    assert view.full_radius == 149  # tier 150 has two nodes and only one fits
    assert all(edge.source in view.node_ids and edge.target in view.node_ids for _, edge in view.edges)


def test_unreached_nodes_come_last_and_the_radius_counts_only_reached_ones():
    graph = chain(10)
    view = select_view(graph, {"n000": 0, "n001": 1}, cap=5)
    assert view.node_ids == ("n000", "n001", "n002", "n003", "n004")
    assert view.full_radius == 1


def test_a_cap_below_one_is_refused():
    with pytest.raises(ParameterError):
        select_view(chain(3), {}, cap=0)


@given(graphs(max_nodes=6, max_edges=8))
def test_positions_are_deterministic_and_cover_every_shown_node(graph):
    view = select_view(graph, {})
    first, second = layout_positions(view), layout_positions(view)
    assert first == second and set(first) == set(view.node_ids)


def test_only_views_above_the_physics_limit_need_a_fixed_layout():
    assert not select_view(chain(PHYSICS_NODE_LIMIT), {}).needs_fixed_layout
    assert select_view(chain(PHYSICS_NODE_LIMIT + 1), {}).needs_fixed_layout


def test_a_capped_view_is_laid_out_in_hop_rings_around_the_seeds():
    from core.graph.hops import hop_distances

    graph = service_graph(600, 1200, 7)
    hops = hop_distances(graph, ("db-identity",))
    view = select_view(graph, hops)
    positions = layout_positions(view)
    assert positions == layout_positions(view) and set(positions) == set(view.node_ids)
    assert positions["db-identity"] == (0.0, 0.0)  # one seed: the centre
    radius = {node_id: math.hypot(*positions[node_id]) for node_id in view.node_ids}
    by_hop: dict[float, list[float]] = {}
    for node_id, hop in zip(view.node_ids, view.node_hops, strict=True):
        by_hop.setdefault(hop, []).append(radius[node_id])
    rings = [by_hop[hop] for hop in sorted(by_hop)]
    assert all(max(inner) < min(outer) for inner, outer in itertools.pairwise(rings))  # tier by tier
    assert max(radius.values()) <= 500.0 + 0.1  # within the default 1,000 pixels across
    assert len(rings[1]) < len(rings[-1])  # the seeds' near ring is the roomy one
