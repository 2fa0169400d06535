"""edge_tuples: KG-LLM-Bench's list of edges, `(subject, relation, object)`, with `(id, type)` lines."""

from __future__ import annotations

import pytest

from core.errors import FormatError
from core.formats.edge_tuples import FORMAT
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units

SMALL = Graph.build(
    [Node("svc-api", "service", {"tier": 1}), Node("svc-auth", "service")],
    [Edge("svc-api", "depends_on", "svc-auth", {"weight": 0.5})])


def test_nodes_are_pairs_and_edges_are_triples():
    assert FORMAT.render(SMALL, graph_units(SMALL)).text == """\
(svc-api, service, {"tier":1})
(svc-auth, service)
(svc-api, depends_on, svc-auth, {"weight":0.5})"""


def test_commas_parentheses_and_spaces_inside_names_are_quoted():
    graph = Graph.build([Node("f(x, y)", "a type"), Node("z", "t")], [Edge("f(x, y)", ")", "z")])
    text = FORMAT.render(graph, graph_units(graph)).text
    assert text.split("\n") == ['("f(x, y)", "a type")', "(z, t)", '("f(x, y)", ")", z)']
    assert FORMAT.decode(text) == graph


def test_a_tuple_of_the_wrong_size_is_a_format_error_with_its_line():
    with pytest.raises(FormatError) as error:
        FORMAT.decode("(a, t)\n(a, r, b, c)")
    assert error.value.line == 2

