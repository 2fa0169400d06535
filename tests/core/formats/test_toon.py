"""toon: the flat records as toon-format writes them; every record prefix is strict TOON."""

from __future__ import annotations

import math

import pytest
import toon_format
from hypothesis import given
from hypothesis import strategies as st

from core.errors import FormatError
from core.formats import toon
from core.formats.flat_records import edge_record, node_record
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph
from tests.strategies import graphs


def render(graph, units=None):
    return toon.render(graph, graph_units(graph) if units is None else units)


def _document(graph, units):
    return {"nodes": [node_record(graph, unit.node) for unit in units if unit.is_node],
            "edges": [edge_record(graph, unit.edge) for unit in units if not unit.is_node]}


def test_the_service_graph_is_two_tabular_arrays():
    text = render(service_graph()).text
    assert text.startswith("nodes[43]{id,type}:\n  db-identity,database\n  svc-api,service\n")
    assert "\nedges[88]{source,target,relation}:\n  svc-api,svc-auth,depends_on\n" in text


def test_each_property_is_its_own_column_and_ids_read_as_numbers_stay_numbers():
    graph = Graph.build([Node("1", "person", (("name", "Alice"), ("age", 28)), 1),
                         Node("2", "person", (("name", "Bob"), ("age", 34)), 2)],
                        [Edge("1", "follows", "2", (("since", 2020),))])
    assert render(graph).text == ("nodes[2]{id,type,name,age}:\n  1,person,Alice,28\n  2,person,Bob,34\n"
                                  "edges[1]{source,target,relation,since}:\n  1,2,follows,2020")


@given(graph=graphs())
def test_a_full_rendering_is_what_toon_format_writes(graph):
    units = graph_units(graph)
    assert render(graph, units).text == toon_format.encode(_document(graph, units))


@given(graph=graphs(), data=st.data())
def test_every_record_prefix_in_any_order_is_strict_toon_holding_its_own_rows(graph, data):
    units = data.draw(st.permutations(graph_units(graph)))
    rendering = render(graph, units)
    count = data.draw(st.integers(min_value=0, max_value=len(rendering.records)))
    decoded = toon_format.decode(rendering.prefix_text(count), strict=True)
    kept = [unit for record in rendering.records[:count] for unit in units if unit.key in record.unit_keys]
    expected = _document(graph, [unit for unit in units if unit in kept])
    assert len(decoded["nodes"]) == len(expected["nodes"]) and len(decoded["edges"]) == len(expected["edges"])


def test_a_cut_declares_the_rows_it_holds():
    rendering = render(service_graph())
    assert rendering.prefix_text(2) == ("nodes[2]{id,type}:\n  db-identity,database\n  svc-api,service\n"
                                        "edges[0]{source,target,relation}:")
    assert rendering.prefix_text(45).startswith("nodes[43]{id,type}:") and "\nedges[2]{" in rendering.prefix_text(45)
    assert len(toon.decode(rendering.prefix_text(45)).edges) == 2


def test_records_of_different_fields_are_list_items():
    graph = Graph.build([Node("a", "t", (("x", 1),)), Node("b", "t")], [])
    assert render(graph).text == "nodes[2]:\n  - id: a\n    type: t\n    x: 1\n  - id: b\n    type: t\nedges: []"


def test_a_property_named_like_a_field_is_kept_in_a_properties_object():
    graph = Graph.build([Node("a", "t", (("id", "x"), ("type", 2)))], [Edge("a", "r", "a", (("relation", 1),))])
    assert toon.decode(render(graph).text) == graph


def test_whole_decimals_read_back_as_integers_as_the_format_says():
    graph = Graph.build([Node("a", "t", (("km", 8891.0), ("z", -0.0), ("r", 2.5)))], [])
    decoded = toon.decode(render(graph).text)
    assert decoded.nodes[0].properties == (("km", 8891), ("z", 0), ("r", 2.5))
    assert decoded.nodes[0] == toon.image(graph_units(graph)[0])
    assert isinstance(decoded.nodes[0].properties[0][1], int) and not math.isnan(decoded.nodes[0].properties[2][1])


def test_cells_that_look_like_other_values_are_quoted_and_stay_text():
    graph = Graph.build([Node("1", "true"), Node("a,b", ""), Node("-x", "null")], [Edge("1", "#", "a,b")])
    text = render(graph).text
    assert '  "1","true"\n' in text and '  "a,b",""\n' in text and '  "1","a,b","#"' in text
    assert toon.decode(text) == graph


@pytest.mark.parametrize("text, problem", [
    ("nodes[1]{id,type}:\n  a,t\n  b,t\nedges[0]{source,target,relation}:", "Declared length 1"),
    ("nodes[1]{id,kind}:\n  a,t\nedges[0]{source,target,relation}:", "no type"),
    ("nodes[1]{id,type}:\n  a,t", "keys"),
    ("nodes[1]{id,type}:\n  true,t\nedges[0]{source,target,relation}:", "expected text"),
    ("nodes[1]{id,type}:\n  a,\"t\nedges[0]{source,target,relation}:", "invalid TOON"),
])
def test_malformed_tables_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem.replace("[", r"\[")) as error:
        toon.decode(text)
    assert error.value.where
