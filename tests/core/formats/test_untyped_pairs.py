"""untyped_pairs: `a b` per edge. Lossy on purpose, to show what the cheapest text cannot answer."""

from __future__ import annotations

from core.formats.untyped_pairs import FORMAT
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.queries import dependencies_within, impact, owners_of
from core.reports.benchmark import benchmark_report

SMALL = Graph.build(
    [Node("svc-api", "service", {"tier": 1}), Node("team-core", "team"), Node("lonely", "service")],
    [Edge("svc-api", "owned_by", "team-core", {"since": 2021}), Edge("svc-api", "owned_by", "team-core")])


def decoded(graph):
    return FORMAT.decode(FORMAT.render(graph, graph_units(graph)).text)


def test_a_line_per_node_and_a_pair_per_edge():
    assert FORMAT.render(SMALL, graph_units(SMALL)).text.split("\n") == \
        ["lonely", "svc-api", "team-core", "svc-api team-core", "svc-api team-core"]


def test_exactly_node_types_relation_names_and_properties_are_lost():
    assert not FORMAT.lossless
    assert FORMAT.lost.startswith("node types, relation names and all properties")
    # ids, direction, parallel edges and isolated nodes survive; everything else becomes a placeholder
    assert decoded(SMALL) == Graph.build(
        [Node("svc-api", "node"), Node("team-core", "node"), Node("lonely", "node")],
        [Edge("svc-api", "related_to", "team-core"), Edge("svc-api", "related_to", "team-core")])


def test_a_query_filtering_on_node_type_or_relation_fails_after_decoding():
    graph = service_graph()
    after = decoded(graph)
    assert "svc-web" in impact(graph, "db-identity").answer
    assert impact(after, "db-identity").answer == []  # no node is a "service", no edge is a "depends_on"
    # Asked with the placeholders instead, the dependencies of svc-api take in its owning team ...
    assert "team-core" not in dependencies_within(graph, "svc-api").answer
    assert "team-core" in dependencies_within(after, "svc-api", relation="related_to").answer
    # ... and its "owners" take in its dependencies.
    assert owners_of(graph, ("svc-api",)).answer == {"svc-api": ["team-core"]}
    assert owners_of(after, ("svc-api",), relation="related_to").answer == {"svc-api": ["svc-auth", "team-core"]}


def test_the_reference_graph_decodes_but_traversal_accuracy_falls_below_one():
    report, _ = benchmark_report(service_graph(), "o200k_base", {}, formats=[FORMAT.name])
    figures = report["formats"][FORMAT.name]
    assert not figures["lossless"] and not figures["round_trip_equal"]
    assert figures["traversal_accuracy"] < 1.0
