"""semantic_text: the semantic datasheet, one page of sentences per node, that still decodes exactly."""

from __future__ import annotations

import re

import pytest

from core.errors import FormatError
from core.formats.semantic_text import FORMAT, readings
from core.graph.model import Edge, Graph, Node, RelationReading, Schema
from core.graph.units import graph_units
from core.io.generate import service_graph

SCHEMA = Schema(
    type_definitions=(("service", "A deployable backend service."), ("team", "People who own services.")),
    relations=(RelationReading("depends_on", "depends on", "is depended on by", ("service",), ("service", "database")),
               RelationReading("owned_by", "is owned by", "owns", ("service",), ("team",))))
GRAPH = Graph.build(
    [Node("svc-api", "service", {"tier": 1, "name": "API"}), Node("svc-auth", "service"), Node("svc-web", "service"),
     Node("team-core", "team"), Node("db-identity", "database")],
    [Edge("svc-api", "depends_on", "svc-auth"), Edge("svc-api", "depends_on", "db-identity"),
     Edge("svc-web", "depends_on", "svc-api"), Edge("svc-api", "owned_by", "team-core"),
     Edge("svc-auth", "owned_by", "team-core", {"since": 2021})],
    SCHEMA)


def seed_first(graph, seed):
    """svc-api's page first: it then carries every edge of svc-api, in both directions."""
    return sorted(graph_units(graph), key=lambda unit: (unit.key != f"n:{seed}", unit.key))


def test_a_page_states_the_node_its_properties_its_links_and_what_it_could_link():
    text = FORMAT.render(GRAPH, seed_first(GRAPH, "svc-api")).text
    assert text.split("\n\n")[:3] == ['''\
#semantic-datasheet-v1
READINGS (relation: "reading" / "inverse reading")
- depends_on: "depends on" / "is depended on by"
- owned_by: "is owned by" / "owns"''', '''\
svc-api — a service
Definition: A deployable backend service.
PROPERTIES
- tier: 1
- name: "API"
LINKED — actual data records
This service depends on db-identity and svc-auth.
This service is owned by team-core.
This service is depended on by svc-web.''', '''\
svc-auth — a service
Definition: A deployable backend service.
LINKED — actual data records
This service is owned by team-core {"since":2021}.
CAN BE LINKED (zero links today — never report these as existing)
- depends on: database, service''']
    assert FORMAT.decode(text) == GRAPH


def test_without_a_schema_readings_come_from_relation_names_and_options_from_the_data():
    graph = GRAPH.with_schema(None)
    assert readings(graph) == {"depends_on": ("depends on", "is the target of depends on from"),
                               "owned_by": ("owned by", "is the target of owned by from")}
    pages = FORMAT.render(graph, graph_units(graph)).text.split("\n\n")
    api = next(page for page in pages if page.startswith("svc-api"))
    assert api.endswith("This service is the target of depends on from svc-web.")  # svc-api's page comes first
    web = next(page for page in pages if page.startswith("svc-web"))
    assert web == """\
svc-web — a service
CAN BE LINKED (zero links today — never report these as existing)
- owned by: team
- is the target of depends on from: service"""


def test_every_edge_is_stated_once_on_the_page_of_its_first_node():
    graph = service_graph()
    text = FORMAT.render(graph, graph_units(graph)).text
    sentences = [line for line in text.split("\n") if line.startswith("This ")]
    stated = sum(len(re.split(r", | and ", sentence.split(" ", 4)[-1])) for sentence in sentences)
    assert stated == len(graph.edges) == 88
    assert "db-identity — a database\nLINKED — actual data records\n" \
           "This database is the target of depends on from svc-auth." in text


def test_an_edge_without_a_page_for_either_node_goes_on_a_stub_page():
    units = [unit for unit in graph_units(GRAPH) if unit.key in ("n:team-core", "e:svc-web|depends_on|svc-api")]
    text = FORMAT.render(GRAPH, units).text
    assert text.split("\n\n")[1:] == ["team-core — a team\nDefinition: People who own services.",
                                      "svc-web — node record not included\nLINKED — actual data records\n"
                                      "This node depends on svc-api."]
    decoded = FORMAT.decode(text)
    assert [(edge.source, edge.relation, edge.target) for edge in decoded.edges] == \
        [("svc-web", "depends_on", "svc-api")]


def test_names_that_would_read_ambiguously_in_prose_are_quoted():
    graph = Graph.build([Node("a, b and c", "Stop Point"), Node("and", "Stop Point"), Node('say "hi"', "line\nbreak")],
                        [Edge("a, b and c", "depends_on", "and"), Edge("and", "depends_on", 'say "hi"', {"w": 1.5})])
    text = FORMAT.render(graph, graph_units(graph)).text
    assert '"a, b and c" — a Stop Point\nLINKED — actual data records\nThis Stop Point depends on "and".' in text
    assert 'This Stop Point depends on "say \\"hi\\"" {"w":1.5}.' in text
    assert '"say \\"hi\\"" — a "line\\nbreak"' in text
    assert FORMAT.decode(text) == graph


def test_readings_that_collide_or_prefix_each_other_are_replaced_by_numbered_ones():
    graph = Graph.build([Node("a", "t")], [Edge("a", "depends on", "a"), Edge("a", "depends_on", "a"),
                                           Edge("a", "depends_on_x", "a")])
    assert readings(graph) == {"depends on": ("depends on", "is the target of depends on from"),
                               "depends_on": ("has link 1 to", "has link 1 from"),
                               "depends_on_x": ("has link 2 to", "is the target of depends on x from")}
    assert FORMAT.decode(FORMAT.render(graph, graph_units(graph)).text) == graph


def test_when_a_reading_blocks_every_has_link_phrase_one_word_phrases_take_over():
    graph = Graph.build([Node("a", "t")], [Edge("a", "has", "a"), Edge("a", "has\n", "a")])
    assert readings(graph) == {"has": ("has", "is the target of has from"), "has\n": ("link-1-to", "link-1-from")}
    assert FORMAT.decode(FORMAT.render(graph, graph_units(graph)).text) == graph


def test_a_sentence_with_an_unlisted_reading_is_a_format_error_with_its_line():
    text = FORMAT.render(GRAPH, graph_units(GRAPH)).text.replace("This service is owned by", "This service is run by")
    with pytest.raises(FormatError, match="no reading listed") as error:
        FORMAT.decode(text)
    assert error.value.line is not None
