"""arrows: LlamaIndex-style `a -> relation -> b` triplets with `id: type` lines."""

from __future__ import annotations

import pytest

from core.errors import FormatError
from core.formats.arrows import FORMAT
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units

SMALL = Graph.build(
    [Node("svc-api", "service", {"tier": 1}), Node("svc-auth", "service")],
    [Edge("svc-api", "depends_on", "svc-auth"), Edge("svc-api", "depends_on", "svc-auth")])


def test_types_then_triplets_one_per_line():
    assert FORMAT.render(SMALL, graph_units(SMALL)).text == """\
svc-api: service {"tier":1}
svc-auth: service
svc-api -> depends_on -> svc-auth
svc-api -> depends_on -> svc-auth"""


def test_arrows_and_colons_inside_names_are_quoted():
    graph = Graph.build([Node("a -> b", "t: u")], [Edge("a -> b", "->", "a -> b")])
    text = FORMAT.render(graph, graph_units(graph)).text
    assert text.split("\n") == ['"a -> b": "t: u"', '"a -> b" -> "->" -> "a -> b"']
    assert FORMAT.decode(text) == graph


def test_a_line_that_is_neither_a_type_nor_a_triplet_is_a_format_error():
    with pytest.raises(FormatError) as error:
        FORMAT.decode("a: t\na -> b")
    assert error.value.line == 2

