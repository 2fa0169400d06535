"""Reference readers: the oracle answers what the decoded context supports; first-k answers without traversal."""

from __future__ import annotations

import json

import pytest

from core.errors import ParameterError
from core.evaluate.reader_server import _registered_templates
from core.evaluate.readers import document_of, first_k, oracle, read_request, resolve_query
from core.evaluate.scoring import score_answer
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.io.samples import load_sample
from core.prompt.answers import schema_for
from core.prompt.frame import build_prompt
from core.queries import IMPACT_OWNERS, OWNERS, query, reference_suite
from core.queries import QUERIES as QUERIES_REGISTRY

GRAPH = service_graph(10, 8, 7)
JETSON = load_sample("nvidia-jetson")
TEMPLATES = _registered_templates()
FORMAT_MAP = {name: FORMATS.get(name) for name in FORMATS}
QUERIES = [*reference_suite().values(),
           query(IMPACT_OWNERS, failed="db-identity", node_type="service", relation="depends_on",
                 owner_relation="owned_by"),
           query(OWNERS, nodes=("svc-api", "svc-web"), relation="owned_by"),
           query(QUERIES_REGISTRY.get("shortest_path"), source="svc-web", target="db-identity"),
           query(QUERIES_REGISTRY.get("typed_neighbours"), node="svc-auth", relation="depends_on", direction="both",
                 node_type="service")]
LEARNING = [query(QUERIES_REGISTRY.get("t1_entity"), concept="41"),
            query(QUERIES_REGISTRY.get("t2_prerequisites"), concept="28"),
            query(QUERIES_REGISTRY.get("t3_prerequisite_path"), start="9", concept="47"),
            query(QUERIES_REGISTRY.get("t4_taxonomy_members"), taxonomy="SDK"),
            query(QUERIES_REGISTRY.get("t5_relation"), first="12", second="11")]
CASES = [(GRAPH, item) for item in QUERIES] + [(JETSON, item) for item in LEARNING]


def test_every_registered_template_is_covered_here():
    assert {item.name for _, item in CASES} == set(QUERIES_REGISTRY.names())


@pytest.mark.parametrize("graph, item", CASES, ids=lambda value: getattr(value, "name", ""))
def test_every_question_resolves_back_to_its_query(graph, item):
    question = item.question_on(graph)
    resolved = resolve_query(question, TEMPLATES, graph)
    # A parameter the question does not mention takes the solver's default, as a reader would assume.
    assert resolved.name == item.name and resolved.question_on(graph) == question
    assert set(resolved.arguments) <= set(item.arguments) and resolved.solve(graph) == item.solve(graph)


def test_labels_in_questions_are_read_back_as_ids():
    item = LEARNING[1]
    question = item.question_on(JETSON)
    assert "28" not in question  # the question names the concept by its label
    assert dict(resolve_query(question, TEMPLATES, JETSON).arguments)["concept"] == "28"


def test_a_question_no_template_wrote_is_refused():
    with pytest.raises(ParameterError, match="matches no query template"):
        resolve_query("Which services are slow?", TEMPLATES)


def prompt(item, format_name: str, data: str, graph=GRAPH) -> str:
    gold = item.solve(graph).answer
    format_ = FORMATS.get(format_name)
    return build_prompt(schema_for(item.name, gold), item.question_on(graph), format_name, format_.grammar, data)


@pytest.mark.parametrize("format_name", ["jsonl", "pretty_json", "typed_edges"])
@pytest.mark.parametrize("graph, item", CASES, ids=lambda value: getattr(value, "name", ""))
def test_the_oracle_is_exact_exactly_when_the_decoded_prefix_answers_like_the_full_graph(format_name, graph, item):
    format_ = FORMATS.get(format_name)
    rendering = format_.render(graph, graph_units(graph))
    gold = item.solve(graph).answer
    outcomes = set()
    for kept in [*range(0, len(rendering.records), 4), len(rendering.records)]:
        data = rendering.prefix_text(kept)
        reply = oracle(read_request(prompt(item, format_name, data, graph), FORMAT_MAP, TEMPLATES))
        traversal = item.solve(format_.decode(data)).answer == gold
        assert score_answer(schema_for(item.name, gold), reply, gold).exact_match == traversal
        outcomes.add(traversal)
    assert outcomes == {True, False}  # the prefixes cover both outcomes


def test_the_oracle_refuses_data_that_does_not_decode_so_it_scores_zero():
    item = reference_suite()["identity_failure_affected_services"]
    broken = FORMATS.get("pretty_json").render(GRAPH, graph_units(GRAPH)).text[:200]
    reply = oracle(read_request(prompt(item, "pretty_json", broken), FORMAT_MAP, TEMPLATES))
    assert reply.startswith("The graph data cannot be read as pretty_json")
    gold = item.solve(GRAPH).answer
    assert not score_answer(schema_for(item.name, gold), reply, gold).parse_success


def test_a_truncation_marker_line_is_not_part_of_the_document():
    assert document_of("N|a|t\n[1 of 9 records shown]") == "N|a|t"
    assert document_of("N|a|t\n[1 of 9 records shown: nodes 1 of 4, edges 0 of 5]") == "N|a|t"
    assert document_of("N|a|t\n[12 of 90 tokens shown]") == "N|a|t"
    assert document_of("N|[1 of 9 records shown]") == "N|[1 of 9 records shown]"
    item = reference_suite()["identity_failure_affected_services"]
    data = FORMATS.get("typed_edges").render(GRAPH, graph_units(GRAPH)).text + "\n[130 of 130 records shown]"
    reply = json.loads(oracle(read_request(prompt(item, "typed_edges", data), FORMAT_MAP, TEMPLATES)))
    assert reply == {"affected_services": item.solve(GRAPH).answer}


def test_first_k_takes_the_first_ids_in_context_order_leaving_out_the_question():
    item = reference_suite()["identity_failure_affected_services"]
    data = FORMATS.get("typed_edges").render(GRAPH, graph_units(GRAPH)).text
    request = read_request(prompt(item, "typed_edges", data), FORMAT_MAP, TEMPLATES)
    assert json.loads(first_k(request, 3)) == {"affected_services": ["svc-api", "svc-auth", "svc-noise-0000"]}


def test_first_k_fills_a_mapping_with_edge_targets():
    item = QUERIES[3]  # impact_owners: a set and a mapping
    data = FORMATS.get("csv").render(GRAPH, graph_units(GRAPH)).text
    reply = json.loads(first_k(read_request(prompt(item, "csv", data), FORMAT_MAP, TEMPLATES), 2))
    assert reply["affected_services"] == ["svc-api", "svc-auth"]
    assert reply["owners"]["svc-api"][0] == "svc-auth"  # its first edge in the data, not its owner
