"""Shortest directed path and typed neighbours: checked against networkx and stable under cutting."""

from __future__ import annotations

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from core.graph.model import Graph
from core.io.generate import service_graph
from core.queries import SHORTEST_PATH, TYPED_NEIGHBOURS, query, shortest_path, typed_neighbours
from tests.strategies import graphs

SERVICES = service_graph(40, 80, 7)


def test_the_shortest_path_follows_edge_direction():
    solution = shortest_path(SERVICES, "svc-web", "db-identity")
    assert solution.answer == ["svc-web", "svc-api", "svc-auth", "db-identity"]
    assert solution.evidence == {"e:svc-web|depends_on|svc-api", "e:svc-api|depends_on|svc-auth",
                                 "e:svc-auth|depends_on|db-identity"}
    assert shortest_path(SERVICES, "db-identity", "svc-web").answer == []
    assert shortest_path(SERVICES, "svc-web", "team-core", relation="depends_on").answer == []
    assert shortest_path(SERVICES, "svc-web", "svc-web").answer == ["svc-web"]


def test_typed_neighbours_by_relation_direction_and_type():
    assert typed_neighbours(SERVICES, "svc-auth", "depends_on", "in").answer == ["svc-api", "svc-profile"]
    assert typed_neighbours(SERVICES, "svc-auth", "owned_by").answer == ["team-core"]
    both = typed_neighbours(SERVICES, "svc-auth", "depends_on", "both", node_type="database")
    assert both.answer == ["db-identity"]
    assert both.evidence == {"e:svc-auth|depends_on|db-identity", "n:db-identity"}


def test_questions_name_their_parameters():
    assert query(SHORTEST_PATH, source="a", target="b").question == \
        "What is the shortest directed path from a to b?"
    assert "of type any" in query(TYPED_NEIGHBOURS, node="a", relation="r").question


@given(graph=graphs(with_properties=False), data=st.data())
def test_path_length_agrees_with_networkx_and_survives_any_cut_that_keeps_it(graph, data):
    ids = [node.id for node in graph.nodes]
    source, target = data.draw(st.sampled_from(ids)), data.draw(st.sampled_from(ids))
    answer = shortest_path(graph, source, target)
    reference = graph.to_networkx()
    if nx.has_path(reference, source, target):
        assert len(answer.answer) - 1 == nx.shortest_path_length(reference, source, target)
    else:
        assert answer.answer == []
    kept = [edge for key, edge in _keyed(graph) if key in answer.evidence or data.draw(st.booleans())]
    smaller = Graph.build(graph.nodes, kept)
    assert shortest_path(smaller, source, target).answer == answer.answer


def _keyed(graph):
    from core.graph.units import edge_keys
    return list(edge_keys(graph))
