"""ckg_lines: `[TYPE] id | relation: a, b` lines (the shape the CKG benchmark describes) for any relation."""

from __future__ import annotations

import pytest

from core.errors import FormatError
from core.formats.ckg_lines import FORMAT
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph

SMALL = Graph.build(
    [Node("svc-api", "service", {"tier": 1}), Node("svc-auth", "service"), Node("team-core", "team")],
    [Edge("svc-api", "depends_on", "svc-auth"), Edge("svc-api", "owned_by", "team-core"),
     Edge("svc-auth", "owned_by", "team-core", {"since": 2021})])


def test_each_line_holds_a_node_and_its_outgoing_edges_by_relation():
    assert FORMAT.render(SMALL, graph_units(SMALL)).text == """\
#graph-ckg-v1
[service] svc-api {"tier":1} | depends_on: svc-auth | owned_by: team-core
[service] svc-auth | owned_by: team-core {"since":2021}
[team] team-core"""


def test_the_reference_graph_reads_like_a_ckg_context():
    lines = FORMAT.render(service_graph(), graph_units(service_graph())).text.split("\n")
    assert lines[:3] == ["#graph-ckg-v1", "[database] db-identity",
                         "[service] svc-api | depends_on: svc-auth | owned_by: team-core"]


def test_edges_whose_source_line_was_cut_go_on_a_line_without_a_type():
    units = [unit for unit in graph_units(SMALL) if unit.key != "n:svc-api"]
    assert FORMAT.render(SMALL, units).text == """\
#graph-ckg-v1
[service] svc-auth | owned_by: team-core {"since":2021}
[team] team-core
svc-api | depends_on: svc-auth | owned_by: team-core"""


def test_separators_inside_names_are_quoted():
    graph = Graph.build([Node("a, b", "[T]"), Node("c | d", "t")], [Edge("a, b", "r: s", "c | d")])
    text = FORMAT.render(graph, graph_units(graph)).text
    assert '["[T]"] "a, b" | "r: s": "c | d"' in text
    assert FORMAT.decode(text) == graph


def test_a_line_without_type_or_edges_is_a_format_error():
    with pytest.raises(FormatError, match="must state edges") as error:
        FORMAT.decode("#graph-ckg-v1\n[t] a\nb")
    assert error.value.line == 3

