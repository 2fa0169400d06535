"""incident_text: GraphQA's incident encoding with relations and direction stated, plus type lines."""

from __future__ import annotations

import pytest

from core.errors import FormatError
from core.formats.incident_text import FORMAT
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units

SMALL = Graph.build(
    [Node("svc-api", "service", {"tier": 1}), Node("svc-auth", "service"), Node("db-identity", "database"),
     Node("team-core", "team"), Node("ops", "admin")],
    [Edge("svc-api", "depends_on", "svc-auth"), Edge("svc-api", "depends_on", "db-identity"),
     Edge("svc-api", "owned_by", "team-core"), Edge("svc-auth", "owned_by", "team-core", {"since": 2021})])


def test_one_type_line_per_node_and_one_incidence_line_per_source():
    assert FORMAT.render(SMALL, graph_units(SMALL)).text == """\
db-identity is a database.
ops is an admin.
svc-api is a service {"tier":1}.
svc-auth is a service.
team-core is a team.
svc-api depends_on: db-identity, svc-auth; owned_by: team-core.
svc-auth owned_by: team-core {"since":2021}."""


def test_in_an_interleaved_order_each_source_line_follows_its_node():
    units = sorted(graph_units(SMALL), key=lambda unit: (unit.node.id if unit.is_node else unit.edge.source,
                                                         not unit.is_node))
    assert FORMAT.render(SMALL, units).text.split("\n")[2:4] == [
        'svc-api is a service {"tier":1}.', "svc-api depends_on: db-identity, svc-auth; owned_by: team-core."]


def test_punctuation_inside_names_is_quoted():
    graph = Graph.build([Node("a. b", "t;u")], [Edge("a. b", "r:", "a. b")])
    text = FORMAT.render(graph, graph_units(graph)).text
    assert text.split("\n") == ['"a. b" is a "t;u".', '"a. b" "r:": "a. b".']
    assert FORMAT.decode(text) == graph


def test_a_sentence_without_its_full_stop_is_a_format_error_with_its_line():
    with pytest.raises(FormatError) as error:
        FORMAT.decode("a is a t.\na r: b")
    assert error.value.line == 2
