"""local_ids: a GCF-style node table with short local ids, edges citing them, nodes grouped by hop."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import FormatError
from core.formats.local_ids import FORMAT
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from tests.strategies import graphs

SMALL = Graph.build(
    [Node("svc-api", "service", {"tier": 1}), Node("svc-auth", "service"), Node("team-core", "team"),
     Node("db", "database")],
    [Edge("svc-api", "depends_on", "svc-auth"), Edge("svc-api", "owned_by", "team-core"),
     Edge("svc-auth", "owned_by", "team-core", {"since": 2021}), Edge("svc-auth", "depends_on", "db")])
HOPS = {"svc-auth": 0, "svc-api": 1, "db": 1}


def test_without_seeds_every_node_sits_under_one_nodes_header():
    assert FORMAT.render(SMALL, graph_units(SMALL)).text == """\
#graph-local-v1
## nodes
@0 database db
@1 service svc-api {"tier":1}
@2 service svc-auth
@3 team team-core
## edges
@1 depends_on @2
@1 owned_by @3
@2 depends_on @0
@2 owned_by @3 {"since":2021}"""


def test_with_seeds_nodes_are_grouped_by_hop_and_keep_their_local_ids():
    text = FORMAT.render(SMALL, graph_units(SMALL, HOPS)).text
    assert text.split("\n## edges")[0] == """\
#graph-local-v1
## hop 0
@2 service svc-auth
## hop 1
@0 database db
@1 service svc-api {"tier":1}
## nodes
@3 team team-core"""
    assert FORMAT.decode(text) == SMALL


def test_local_ids_come_from_the_whole_graph_not_from_the_units_rendered():
    units = [unit for unit in graph_units(SMALL) if unit.key in ("n:team-core", "n:svc-auth")]
    assert FORMAT.render(SMALL, units).text == "#graph-local-v1\n## nodes\n@2 service svc-auth\n@3 team team-core"


def test_an_edge_whose_node_row_was_cut_names_the_node_by_its_full_id():
    units = [unit for unit in graph_units(SMALL, HOPS) if unit.key not in ("n:svc-auth", "n:db")]
    text = FORMAT.render(SMALL, units).text
    assert text.split("## edges\n")[1] == """\
@1 depends_on svc-auth
@1 owned_by @3
svc-auth depends_on db
svc-auth owned_by @3 {"since":2021}"""
    decoded = FORMAT.decode(text)
    assert [(e.source, e.relation, e.target) for e in decoded.edges] == \
        [(e.source, e.relation, e.target) for e in SMALL.edges]
    assert decoded.node_by_id["svc-auth"].type == "unknown"


def test_names_that_look_like_local_ids_are_quoted():
    graph = Graph.build([Node("@1", "a type"), Node("x", "t")], [Edge("@1", "rel ation", "x")])
    text = FORMAT.render(graph, graph_units(graph)).text
    assert '@0 "a type" "@1"' in text and '@0 "rel ation" @1' in text
    assert FORMAT.decode(text) == graph


def test_a_local_id_without_a_row_is_a_format_error_with_its_line():
    with pytest.raises(FormatError, match="@7 has no row") as error:
        FORMAT.decode("#graph-local-v1\n## nodes\n@0 service a\n## edges\n@0 depends_on @7")
    assert error.value.line == 5


def test_one_local_id_for_two_nodes_is_a_format_error():
    with pytest.raises(FormatError, match="declared for two nodes"):
        FORMAT.decode("#graph-local-v1\n## nodes\n@0 service a\n@0 service b")


@settings(max_examples=100)
@given(graph=graphs(), data=st.data())
def test_with_hops_every_prefix_is_still_the_rendering_of_its_own_units(graph, data):
    hops = {node.id: data.draw(st.sampled_from([0, 1, 2, math.inf])) for node in graph.nodes}
    units = data.draw(st.permutations(graph_units(graph, hops)))
    rendering = FORMAT.render(graph, units)
    count = data.draw(st.integers(min_value=0, max_value=len(rendering.records)))
    kept = {key for record in rendering.records[:count] for key in record.unit_keys}
    assert rendering.prefix_text(count) == FORMAT.render(graph, [unit for unit in units if unit.key in kept]).text
    assert FORMAT.decode(rendering.text) == graph

