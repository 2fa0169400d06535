"""Untruncated, every lossless format answers every query template exactly (traversal accuracy 1.0)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.io.learning_graph import parse_learning_graph
from core.queries import QUERIES, TEMPLATES, Query, query
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

SERVICES = service_graph(40, 80, 7)
JETSON = parse_learning_graph((Path(__file__).parents[3] / "sample_graphs" / "nvidia-jetson" /
                               "learning-graph.csv").read_bytes())
LOSSLESS = [name for name in FORMATS if FORMATS.get(name).lossless]

EXAMPLES: dict[str, list[tuple[object, Query]]] = {
    "dependencies_within": [(SERVICES, query(QUERIES.get("dependencies_within"), start="svc-api"))],
    "impact": [(SERVICES, query(QUERIES.get("impact"), failed="db-identity"))],
    "owners_of": [(SERVICES, query(QUERIES.get("owners_of"), nodes=("svc-api", "svc-web")))],
    "owners_of_affected": [(SERVICES, query(QUERIES.get("owners_of_affected"), failed="db-identity"))],
    "impact_owners": [(SERVICES, query(QUERIES.get("impact_owners"), failed="db-identity"))],
    "shortest_path": [(SERVICES, query(QUERIES.get("shortest_path"), source="svc-web", target="db-identity")),
                      (JETSON, query(QUERIES.get("shortest_path"), source="47", target="9"))],
    "typed_neighbours": [(SERVICES, query(QUERIES.get("typed_neighbours"), node="svc-auth", relation="depends_on",
                                          direction="both", node_type="service"))],
    "t1_entity": [(JETSON, query(QUERIES.get("t1_entity"), concept="41"))],
    "t2_prerequisites": [(JETSON, query(QUERIES.get("t2_prerequisites"), concept="28"))],
    "t3_prerequisite_path": [(JETSON, query(QUERIES.get("t3_prerequisite_path"), start="9", concept="47"))],
    "t4_taxonomy_members": [(JETSON, query(QUERIES.get("t4_taxonomy_members"), taxonomy="SDK"))],
    "t5_relation": [(JETSON, query(QUERIES.get("t5_relation"), first="12", second="11"))],
}


def test_every_registered_template_has_an_example_here():
    assert set(EXAMPLES) == set(QUERIES.names()) == {template.name for template in TEMPLATES}


@pytest.mark.parametrize("name", LOSSLESS)
@pytest.mark.parametrize("template", sorted(EXAMPLES))
def test_decoding_the_whole_rendering_answers_like_the_graph(name, template):
    format_ = FORMATS.get(name)
    for graph, bound in EXAMPLES[template]:
        gold = bound.solve(graph)
        assert gold.answer and gold.evidence, "an example with an empty answer proves nothing"
        decoded = format_.decode(format_.render(graph, graph_units(graph)).text)
        assert bound.solve(decoded) == gold


@pytest.mark.parametrize("name", LOSSLESS)
@cross_product(50)
@given(graph=graphs(), data=st.data())
def test_general_templates_answer_alike_on_adversarial_graphs(name, graph, data):
    format_ = FORMATS.get(name)
    decoded = format_.decode(format_.render(graph, graph_units(graph)).text)
    ids = [node.id for node in graph.nodes]
    relations = [edge.relation for edge in graph.edges] or ["r"]
    bound = data.draw(st.sampled_from([
        query(QUERIES.get("shortest_path"), source=data.draw(st.sampled_from(ids)),
              target=data.draw(st.sampled_from(ids))),
        query(QUERIES.get("typed_neighbours"), node=data.draw(st.sampled_from(ids)),
              relation=data.draw(st.sampled_from(relations)), direction=data.draw(st.sampled_from(["out", "in", "both"]))),
        query(QUERIES.get("impact"), failed=data.draw(st.sampled_from(ids)),
              node_type=data.draw(st.sampled_from([node.type for node in graph.nodes])),
              relation=data.draw(st.sampled_from(relations))),
    ]))
    assert bound.solve(decoded) == bound.solve(graph)
