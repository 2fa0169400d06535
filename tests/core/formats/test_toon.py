"""toon: TOON tables written and read by the toon-format package."""

from __future__ import annotations

import pytest
import toon_format
from hypothesis import given

from core.errors import FormatError
from core.formats import toon
from core.graph.model import Edge, Graph, Node, properties_json
from core.graph.units import graph_units
from core.io.generate import service_graph
from tests.strategies import graphs


def render(graph):
    return toon.render(graph, graph_units(graph))


def test_the_service_graph_is_two_tabular_arrays():
    text = render(service_graph()).text
    assert text.startswith("nodes[43]{id,type}:\n  db-identity,database\n  svc-api,service\n")
    assert "\nedges[88]{source,relation,target}:\n  svc-api,depends_on,svc-auth\n" in text


def _document(graph):
    def extra(item):
        if not graph.has_properties:
            return {}
        return {"properties": properties_json(item.properties) if item.properties else None}

    return {"nodes": [{"id": node.id, "type": node.type, **extra(node)} for node in graph.nodes],
            "edges": [{"source": edge.source, "relation": edge.relation, "target": edge.target, **extra(edge)}
                      for edge in graph.edges]}


@given(graph=graphs())
def test_a_full_rendering_is_what_toon_format_writes_and_strict_toon(graph):
    if not graph.nodes or not graph.edges:
        return  # the package writes an empty array as `nodes: []`; we keep the table header
    text = render(graph).text
    assert text == toon_format.dumps(_document(graph))
    assert toon_format.loads(text) == _document(graph)  # strict: every length matches


def test_a_cut_context_keeps_the_whole_graphs_counts():
    rendering = render(service_graph())
    assert rendering.prefix_text(2) == ("nodes[43]{id,type}:\n  db-identity,database\n  svc-api,service\n"
                                        "edges[88]{source,relation,target}:")
    with pytest.raises(toon_format.ToonDecodeError, match="Declared length 43 but found 2"):
        toon_format.loads(rendering.prefix_text(2))  # strict TOON counts the rows
    decoded = toon.decode(rendering.prefix_text(2))  # our decoder reads [N] as an upper bound
    assert [node.id for node in decoded.nodes] == ["db-identity", "svc-api"] and not decoded.edges


def test_cells_that_look_like_other_values_are_quoted_and_stay_text():
    graph = Graph.build([Node("1", "true"), Node("a,b", ""), Node("-x", "null")], [Edge("1", "#", "a,b")])
    text = render(graph).text
    assert '  "1","true"\n' in text and '  "a,b",""\n' in text and '  "1","#","a,b"' in text
    assert toon.decode(text) == graph


def test_properties_are_a_json_text_column_that_keeps_value_types():
    graph = Graph.build([Node("a", "t", (("flag", True), ("n", 1), ("x", 1.0), ("s", "1"))), Node("b", "t")],
                        [Edge("a", "r", "b", (("w", 2),))])
    text = render(graph).text
    assert text.startswith('nodes[2]{id,type,properties}:\n  a,t,"{\\"flag\\":true,\\"n\\":1,')
    assert "\n  b,t,null\n" in text
    assert toon.decode(text) == graph


@pytest.mark.parametrize("text, problem", [
    ("nodes[1]{id,type}:\n  a,t\n  b,t\nedges[0]{source,relation,target}:", "declares 1 rows but holds 2"),
    ("nodes[1]{id,type}:\n  a,t\nnodes[1]{id,type}:\n  b,t\nedges[0]{source,relation,target}:", "a second nodes"),
    ("nodes[1]{id,kind}:\n  a,t\nedges[0]{source,relation,target}:", "fields"),
    ("nodes[1]{id,type}:\n  a,t", "keys"),
    ("nodes[1]{id,type}:\n  1,t\nedges[0]{source,relation,target}:", "expected text"),
    ('nodes[1]{id,type,properties}:\n  a,t,"[1]"\nedges[0]{source,relation,target}:', "object"),
    ("nodes[1]{id,type}:\n  a,\"t\nedges[0]{source,relation,target}:", "invalid TOON"),
])
def test_malformed_tables_are_format_errors(text, problem):
    with pytest.raises(FormatError, match=problem.replace("[", r"\[")) as error:
        toon.decode(text)
    assert error.value.where
