"""Properties every registered format must have: lossless round trips, valid prefixes, strict decoding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import FormatError
from core.formats import FORMATS
from core.formats.base import ATOM_KINDS
from core.graph.model import Graph, Node
from core.graph.units import graph_units
from core.io.generate import service_graph
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

ALL = FORMATS.names()
LOSSLESS = [name for name in ALL if FORMATS.get(name).lossless]


def render_all(name, graph):
    return FORMATS.get(name).render(graph, graph_units(graph))


@pytest.mark.parametrize("name", LOSSLESS)
@cross_product(300)
@given(graph=graphs())
def test_decoding_a_rendering_gives_back_the_same_graph(name, graph):
    assert FORMATS.get(name).decode(render_all(name, graph).text) == graph


@pytest.mark.parametrize("name", ALL)
@cross_product(100)
@given(graph=graphs(), data=st.data())
def test_every_prefix_is_the_rendering_of_its_own_units(name, graph, data):
    format_ = FORMATS.get(name)
    rendering = render_all(name, graph)
    count = data.draw(st.integers(min_value=0, max_value=len(rendering.records)))
    kept = {key for record in rendering.records[:count] for key in record.unit_keys}
    kept_units = [unit for unit in graph_units(graph) if unit.key in kept]
    assert rendering.prefix_text(count) == format_.render(graph, kept_units).text
    format_.decode(rendering.prefix_text(count))  # a prefix is a valid document


@pytest.mark.parametrize("name", ALL)
@cross_product(100)
@given(graph=graphs())
def test_records_cover_every_unit_once_and_atoms_lie_inside_their_record(name, graph):
    rendering = render_all(name, graph)
    covered = [key for record in rendering.records for key in record.unit_keys]
    assert sorted(covered) == sorted(unit.key for unit in graph_units(graph))
    for record in rendering.records:
        end = 0
        for atom in record.atoms:
            assert atom.kind in ATOM_KINDS
            assert end <= atom.start < atom.end <= len(record.text)
            end = atom.end


@pytest.mark.parametrize("name", ALL)
def test_an_empty_graph_renders_and_decodes(name):
    graph = service_graph(0, 0, 1).__class__.build([], [])
    assert FORMATS.get(name).decode(render_all(name, graph).text) == graph


@pytest.mark.parametrize("name", ALL)
@cross_product(300)
@given(text=st.text(max_size=200))
def test_decoding_arbitrary_text_raises_only_format_errors(name, text):
    try:
        decoded = FORMATS.get(name).decode(text)
    except FormatError as error:
        assert error.where and error.fix, "a format error says where and how to fix it"
    else:
        assert isinstance(decoded, Graph)


@pytest.mark.parametrize("name", ALL)
@cross_product(150)
@given(graph=graphs(max_nodes=4, max_edges=4), data=st.data())
def test_decoding_a_mangled_rendering_raises_only_format_errors(name, graph, data):
    text = render_all(name, graph).text
    position = data.draw(st.integers(min_value=0, max_value=len(text)))
    mangle = data.draw(st.sampled_from(["truncate", "delete", "insert", "duplicate"]))
    if mangle == "truncate":
        text = text[:position]
    elif mangle == "delete":
        text = text[:position] + text[position + 1:]
    elif mangle == "insert":
        text = text[:position] + data.draw(st.sampled_from(list('|\\"{}[],:\n\r#@N E'))) + text[position:]
    else:
        text = text[:position] + text[position:] + text[position:]
    try:
        decoded = FORMATS.get(name).decode(text)
    except FormatError as error:
        assert error.where and error.fix, "a format error says where and how to fix it"
    else:
        assert isinstance(decoded, Graph)


MALFORMED = ["", "   ", "\n\n", "{", "[]", "null", "\x00", "#graph-v1\nX|1", '{"nodes": 3, "edges": []}',
             "kind,a,b,c\nN,1"]
# The inputs of MALFORMED that a format reads as a graph (nodes, edges): an empty text is the empty
# document of several formats. Every other pair must be a FormatError that says where.
DECODES = {
    ("jsonl", ""): (0, 0), ("jsonl", "   "): (0, 0), ("jsonl", "\n\n"): (0, 0),
    ("edge_tuples", ""): (0, 0), ("edge_tuples", "\n\n"): (0, 0),
    ("arrows", ""): (0, 0), ("arrows", "\n\n"): (0, 0),
    ("incident_text", ""): (0, 0), ("incident_text", "\n\n"): (0, 0),
    ("untyped_pairs", ""): (0, 0), ("untyped_pairs", "\n\n"): (0, 0), ("untyped_pairs", "null"): (1, 0),
    ("turtle", ""): (0, 0), ("turtle", "   "): (0, 0), ("turtle", "\n\n"): (0, 0),
    ("ntriples", ""): (0, 0), ("ntriples", "   "): (0, 0), ("ntriples", "\n\n"): (0, 0),
    ("cypher", ""): (0, 0), ("cypher", "   "): (0, 0), ("cypher", "\n\n"): (0, 0),
    ("adjacency_list", ""): (0, 0), ("adjacency_list", "\n\n"): (0, 0),
    ("relation_tables", ""): (0, 0), ("relation_tables", "\n\n"): (0, 0),
    ("ison", ""): (0, 0), ("ison", "   "): (0, 0), ("ison", "\n\n"): (0, 0),
    ("isongraph", ""): (0, 0), ("isongraph", "   "): (0, 0), ("isongraph", "\n\n"): (0, 0),
    ("kgllm_rdf_turtle3", ""): (0, 0), ("kgllm_rdf_turtle3", "   "): (0, 0), ("kgllm_rdf_turtle3", "\n\n"): (0, 0),
}


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("bad", MALFORMED)
def test_malformed_documents_raise_format_errors_that_say_where(name, bad):
    format_ = FORMATS.get(name)
    if (name, bad) in DECODES:
        graph = format_.decode(bad)
        assert (len(graph.nodes), len(graph.edges)) == DECODES[(name, bad)]
        return
    with pytest.raises(FormatError) as caught:
        format_.decode(bad)
    assert caught.value.where, "a format error names where the problem is"


@pytest.mark.parametrize("name", ALL)
def test_every_format_has_a_grammar_a_title_and_an_example(name):
    format_ = FORMATS.get(name)
    assert format_.grammar.strip() and format_.title and format_.example
    assert format_.lossless or format_.lost, "a lossy format says what it loses"


# KG-LLM-Bench's edge-only texts: a node with no edge is not in them at all
WRITES_EDGES_ONLY = {"kgllm_list_of_edges", "kgllm_structured_json", "kgllm_structured_yaml"}


@pytest.mark.parametrize("name", ALL)
def test_an_integer_too_long_to_convert_is_a_format_error_not_a_crash(name):
    graph = service_graph(0, 0, 1).__class__.build([Node("a", "t", (("n", 7),))], [])
    text = render_all(name, graph).text.replace("7", "7" * 5000)
    written = "7" * 5000 in text
    assert written or not FORMATS.get(name).lossless, "lossless formats write the long integer"
    if not written:  # a lossy format that writes no properties: the digits never reach a reader
        expected = [] if name in WRITES_EDGES_ONLY else ["a"]
        assert [node.id for node in FORMATS.get(name).decode(text).nodes] == expected
        return
    with pytest.raises(FormatError, match=r"4300 digits|too long|digits"):
        FORMATS.get(name).decode(text)


@pytest.mark.parametrize("name", ALL)
@cross_product(100)
@given(graph=graphs(), data=st.data())
def test_in_any_unit_order_every_prefix_is_the_rendering_of_its_own_units(name, graph, data):
    format_ = FORMATS.get(name)
    units = data.draw(st.permutations(graph_units(graph)))
    rendering = format_.render(graph, units)
    count = data.draw(st.integers(min_value=0, max_value=len(rendering.records)))
    kept = {key for record in rendering.records[:count] for key in record.unit_keys}
    assert rendering.prefix_text(count) == format_.render(graph, [unit for unit in units if unit.key in kept]).text
    if format_.lossless:
        assert format_.decode(rendering.text) == graph


@pytest.mark.parametrize("name", LOSSLESS)
def test_the_reference_graph_round_trips_with_full_traversal_accuracy(name):
    from core.reports.benchmark import benchmark_report
    report, _ = benchmark_report(service_graph(), "o200k_base", {}, formats=[name])
    figures = report["formats"][name]
    assert figures["round_trip_equal"] and figures["traversal_accuracy"] == 1.0
