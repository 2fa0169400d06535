"""The five reference formats write exactly what the seed document's reference encoders write.

The reference program's figures (bytes, o200k tokens and sha256 of each reference text, the graphs'
node and edge lists, the gold answers) are kept as facts in tests/data/seed_reference_facts.json, so
these checks run on every clone: an equal sha256 is a byte-identical rendering. Only the check that
the facts are what the reference program computes needs the seed document beside the checkout
(it skips without it).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.tokens import TOKENIZERS
from tests.reference_program import load_reference

REFERENCE_FORMATS = ["pretty_json", "compact_json", "jsonl", "csv", "typed_edges"]
PARAMETER_SETS = [(40, 80, 7), (100, 200, 7), (10, 5, 3), (250, 500, 11), (4, 0, 1)]

# o200k_base token counts of the default graph (40 services, 80 noise edges, seed 7), measured on
# the reference encoders' texts (also in the facts file, which the reference program re-derives).
DEFAULT_O200K_TOKENS = {"pretty_json": 4023, "compact_json": 1871, "jsonl": 3088, "csv": 2000, "typed_edges": 1999}


@pytest.fixture(scope="module")
def reference():
    return load_reference()


def test_the_default_graph_has_43_nodes_and_88_edges():
    graph = service_graph()
    assert (len(graph.nodes), len(graph.edges)) == (43, 88)


FACTS = json.loads((Path(__file__).resolve().parents[2] / "data" / "seed_reference_facts.json").read_text(encoding="utf-8"))
FACT_GRAPHS = {(entry["services"], entry["noise_edges"], entry["seed"]): entry for entry in FACTS["graphs"]}


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_facts_cover_every_parameter_set_and_format():
    assert set(FACT_GRAPHS) == set(PARAMETER_SETS)
    assert all(set(entry["formats"]) == set(REFERENCE_FORMATS) for entry in FACT_GRAPHS.values())
    assert {name: FACT_GRAPHS[(40, 80, 7)]["formats"][name]["o200k_tokens"] for name in REFERENCE_FORMATS} == \
        DEFAULT_O200K_TOKENS


@pytest.mark.parametrize("parameters", PARAMETER_SETS)
@pytest.mark.parametrize("name", REFERENCE_FORMATS)
def test_rendering_matches_the_reference_figures(name, parameters):
    graph = service_graph(*parameters)
    text = FORMATS.get(name).render(graph, graph_units(graph)).text
    expected = FACT_GRAPHS[parameters]["formats"][name]
    assert (len(text.encode("utf-8")), TOKENIZERS.get("o200k_base").count(text), sha256(text)) == (
        expected["utf8_bytes"], expected["o200k_tokens"], expected["sha256"])


@pytest.mark.parametrize("parameters", PARAMETER_SETS)
def test_the_generator_builds_the_reference_graph_by_its_facts(parameters):
    graph = service_graph(*parameters)
    entry = FACT_GRAPHS[parameters]
    assert (len(graph.nodes), len(graph.edges)) == (entry["node_count"], entry["edge_count"])
    assert sha256(json.dumps([[node.id, node.type] for node in graph.nodes])) == entry["nodes_sha256"]
    assert sha256(json.dumps([[edge.source, edge.relation, edge.target] for edge in graph.edges])) == entry["edges_sha256"]
    if entry["nodes"] is not None:
        assert [[node.id, node.type] for node in graph.nodes] == entry["nodes"]


def test_reference_queries_give_the_recorded_gold_answers():
    from core.queries import reference_suite
    graph = service_graph()
    answers = {name: query.solve(graph).answer for name, query in reference_suite().items()}
    assert json.loads(json.dumps(answers, default=list)) == FACTS["gold_answers_default_graph"]


@pytest.mark.parametrize("parameters", PARAMETER_SETS)
def test_the_recorded_facts_are_what_the_reference_program_computes(reference, parameters):
    """The one comparison that needs the seed document: the facts above are the reference program's own."""
    nodes, edges = reference.make_graph(*parameters)
    entry = FACT_GRAPHS[parameters]
    assert sha256(json.dumps([[node.id, node.type] for node in nodes])) == entry["nodes_sha256"]
    assert sha256(json.dumps([[edge.source, edge.relation, edge.target] for edge in edges])) == entry["edges_sha256"]
    tokenizer = TOKENIZERS.get("o200k_base")
    for name in REFERENCE_FORMATS:
        encode, _ = reference.FORMATS[name]
        text = encode(nodes, edges)
        assert (len(text.encode("utf-8")), tokenizer.count(text), sha256(text)) == (
            entry["formats"][name]["utf8_bytes"], entry["formats"][name]["o200k_tokens"],
            entry["formats"][name]["sha256"]), name
    if parameters == (40, 80, 7):
        assert json.loads(json.dumps(reference.query_suite(nodes, edges), default=list)) == \
            FACTS["gold_answers_default_graph"]
