"""The five reference formats write exactly what the seed document's reference encoders write."""

from __future__ import annotations

import pytest

from core.generate import service_graph
from core.registry import FORMATS, TOKENIZERS
from core.units import graph_units
from tests.reference_program import load_reference

REFERENCE_FORMATS = ["pretty_json", "compact_json", "jsonl", "csv", "typed_edges"]
PARAMETER_SETS = [(40, 80, 7), (100, 200, 7), (10, 5, 3), (250, 500, 11), (4, 0, 1)]

# o200k_base token counts of the default graph (40 services, 80 noise edges, seed 7), measured on
# the reference encoders' texts; the test below re-derives them from the reference program.
DEFAULT_O200K_TOKENS = {"pretty_json": 4023, "compact_json": 1871, "jsonl": 3088, "csv": 2000, "typed_edges": 1999}


@pytest.fixture(scope="module")
def reference():
    return load_reference()


@pytest.mark.parametrize("parameters", PARAMETER_SETS)
@pytest.mark.parametrize("name", REFERENCE_FORMATS)
def test_rendering_is_byte_identical_to_the_reference_encoder(reference, name, parameters):
    nodes, edges = reference.make_graph(*parameters)
    encode, _ = reference.FORMATS[name]
    graph = service_graph(*parameters)
    assert FORMATS.get(name).render(graph, graph_units(graph)).text == encode(nodes, edges)


@pytest.mark.parametrize("parameters", PARAMETER_SETS)
def test_the_generator_builds_the_reference_graph(reference, parameters):
    nodes, edges = reference.make_graph(*parameters)
    graph = service_graph(*parameters)
    assert [(node.id, node.type) for node in graph.nodes] == [(node.id, node.type) for node in nodes]
    assert [(edge.source, edge.relation, edge.target) for edge in graph.edges] == \
        [(edge.source, edge.relation, edge.target) for edge in edges]


def test_the_default_graph_has_43_nodes_and_88_edges():
    graph = service_graph()
    assert (len(graph.nodes), len(graph.edges)) == (43, 88)


@pytest.mark.parametrize("name", REFERENCE_FORMATS)
def test_default_graph_o200k_token_counts(reference, name):
    nodes, edges = reference.make_graph(40, 80, 7)
    encode, _ = reference.FORMATS[name]
    tokenizer = TOKENIZERS.get("o200k_base")
    assert tokenizer.count(encode(nodes, edges)) == DEFAULT_O200K_TOKENS[name]
    graph = service_graph()
    assert tokenizer.count(FORMATS.get(name).render(graph, graph_units(graph)).text) == DEFAULT_O200K_TOKENS[name]


def test_reference_queries_give_the_reference_gold_answers(reference):
    from core.queries import reference_suite
    nodes, edges = reference.make_graph(40, 80, 7)
    graph = service_graph()
    gold = reference.query_suite(nodes, edges)
    assert {name: query.solve(graph).answer for name, query in reference_suite().items()} == gold
