"""Decoders that read escapes (JSON `\\ud800`, TOON, Turtle `\\uD800`) refuse a lone surrogate with a FormatError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import FormatError
from core.formats import FORMATS
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from tests.hypothesis_profiles import cross_product

ESCAPING = ["pretty_json", "compact_json", "jsonl", "structured_json", "toon", "turtle", "yaml", "jsonld", "ntriples", "gml",
            "xml", "cypher"]
PLACEHOLDER = "zq"  # replaced in the rendered text by a lone-surrogate escape


def rendered_with(name: str, escape: str) -> str:
    graph = Graph.build([Node("a", "t", (("k", PLACEHOLDER),))], [Edge("a", "r", "a")])
    text = FORMATS.get(name).render(graph, graph_units(graph)).text
    assert PLACEHOLDER in text
    return text.replace(PLACEHOLDER, escape)


@pytest.mark.parametrize("name", ESCAPING)
@cross_product(100)
@given(code=st.integers(min_value=0xD800, max_value=0xDFFF), upper=st.booleans())
def test_a_lone_surrogate_escape_is_a_format_error(name, code, upper):
    escape = f"\\u{code:04X}" if upper else f"\\u{code:04x}"
    if name in ("yaml", "toon"):  # YAML and TOON read escapes in double-quoted strings only; the value is written plain
        escape = f'"{escape}"'
    with pytest.raises(FormatError) as caught:
        FORMATS.get(name).decode(rendered_with(name, escape))
    assert caught.value.where and caught.value.fix


@pytest.mark.parametrize("name", ["pretty_json", "compact_json", "jsonl", "structured_json", "turtle"])
def test_a_paired_escape_decodes_to_its_character(name):
    graph = FORMATS.get(name).decode(rendered_with(name, "\\ud83d\\ude00" if name != "turtle" else "\\U0001F600"))
    assert dict(graph.nodes[0].properties)["k"] == "\U0001f600"
