"""KG-LLM-Bench's own texts: the kgllm_ formats write what its generator (kg_builder.py,
KnowledgeGraphTextPresenter) wrote for the shared countries graph (tests/data/published-formats/countries),
and, on a small graph of our own, what its rules give when worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rdflib
from rdflib.compare import isomorphic

from core.formats import FORMATS
from core.formats.kgllm_json_ld3 import CONTEXT
from core.tokens import TOKENIZERS
from tests.published_sources import kgllm_graph

HERE = Path(__file__).resolve().parents[2] / "data" / "published-formats" / "countries"
FILES = {"kgllm_list_of_edges": "list_of_edges", "kgllm_structured_json": "structured_json",
         "kgllm_structured_yaml": "structured_yaml", "kgllm_rdf_turtle3": "rdf_turtle3", "kgllm_json_ld3": "json_ld3"}
TOKENS = {"kgllm_list_of_edges": 325, "kgllm_structured_json": 461, "kgllm_structured_yaml": 305,
          "kgllm_rdf_turtle3": 829, "kgllm_json_ld3": 1509}  # o200k_base counts of the generator's files


COUNTRIES = json.loads((HERE / "graph.json").read_text(encoding="utf-8"))


def generator_text(name: str) -> str:
    return (HERE / "kg-llm-bench" / f"{FILES[name]}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [name for name in FILES if name != "kgllm_json_ld3"])
def test_the_text_is_the_generator_s_byte_for_byte(name):
    graph, units = kgllm_graph(COUNTRIES)
    text = FORMATS.get(name).render(graph, units).text
    assert text == generator_text(name)
    assert TOKENIZERS.get("o200k_base").count(text) == TOKENS[name]


def order_free(document: dict) -> dict:
    """A JSON-LD document with its @graph and its lists of objects sorted (rdflib's order follows the hash seed)."""
    def item(node: dict) -> dict:
        return {key: sorted(value, key=json.dumps) if isinstance(value, list) else value for key, value in node.items()}
    return {**document, "@graph": sorted((item(node) for node in document["@graph"]), key=lambda node: node["@id"])}


def test_json_ld3_is_the_generator_s_graph_and_token_count():
    graph, units = kgllm_graph(COUNTRIES)
    text = FORMATS.get("kgllm_json_ld3").render(graph, units).text
    expected = generator_text("kgllm_json_ld3")
    assert isomorphic(rdflib.Graph().parse(data=text, format="json-ld"),
                      rdflib.Graph().parse(data=expected, format="json-ld"))
    assert order_free(json.loads(text)) == order_free(json.loads(expected))
    assert TOKENIZERS.get("o200k_base").count(text) == TOKENIZERS.get("o200k_base").count(expected) == 1509


@pytest.mark.parametrize("name", list(FILES))
def test_every_prefix_of_the_countries_text_is_the_rendering_of_its_units(name):
    graph, units = kgllm_graph(COUNTRIES)
    format_ = FORMATS.get(name)
    rendering = format_.render(graph, units)
    for count in range(len(rendering.records) + 1):
        kept = {key for record in rendering.records[:count] for key in record.unit_keys}
        assert rendering.prefix_text(count) == format_.render(graph, [u for u in units if u.key in kept]).text
        format_.decode(rendering.prefix_text(count))


# A graph of our own: a node without a label (x), non-ASCII labels, properties, two relations on one pair
# (f -> p: capital, then largest city) and an isolated node (z). The expected texts below are worked out by
# hand from the generator's rules, not by running its code: the DiGraph keeps (f, p) once, in the place of
# capital, with largest city; the relation table is capital R1, largest city R2, located in R3, near R4;
# Turtle orders subjects by references as an object (x, z: 0; f, p: 2), then IRI.
SMALL = {"nodes": [{"id": "f", "label": "France", "type": "country"},
                   {"id": "p", "label": "Zürich", "type": "city", "population": 2100000},
                   {"id": "x", "type": "thing"},
                   {"id": "z", "label": "Ōsaka", "type": "city"}],
         "links": [{"source": "f", "target": "p", "relation": "capital", "since": 1},
                   {"source": "p", "target": "f", "relation": "located in"},
                   {"source": "f", "target": "p", "relation": "largest city"},
                   {"source": "x", "target": "p", "relation": "near"},
                   {"source": "x", "target": "f", "relation": "near"}]}
BY_HAND = {
    "kgllm_list_of_edges": """\
Edges: [
(France, largest city, Zürich),
(Zürich, located in, France),
(x, near, Zürich),
(x, near, France)
]
""",
    "kgllm_structured_json": """\
{
  "France": {
    "largest city": [
      "Z\\u00fcrich"
    ]
  },
  "Z\\u00fcrich": {
    "located in": [
      "France"
    ]
  },
  "x": {
    "near": [
      "Z\\u00fcrich",
      "France"
    ]
  }
}""",
    "kgllm_structured_yaml": """\
France:
  largest city:
  - "Z\\xFCrich"
"Z\\xFCrich":
  located in:
  - France
x:
  near:
  - "Z\\xFCrich"
  - France
""",
    "kgllm_rdf_turtle3": """\
@prefix ex: <http://example.org/countries#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

ex:R1 a rdf:Property ;
    rdfs:label "capital" .

ex:R2 a rdf:Property ;
    rdfs:label "largest city" .

ex:R3 a rdf:Property ;
    rdfs:label "located in" .

ex:R4 a rdf:Property ;
    rdfs:label "near" .

ex:x a ex:Country ;
    rdfs:label "x" ;
    ex:R4 ex:f,
        ex:p .

ex:z a ex:Country ;
    rdfs:label "Ōsaka" .

ex:f a ex:Country ;
    rdfs:label "France" ;
    ex:R2 ex:p .

ex:p a ex:Country ;
    rdfs:label "Zürich" ;
    ex:R3 ex:f .

""",
}
SMALL_JSON_LD = [  # in the Turtle writer's order; rdflib's json.dumps: indent 2, keys sorted, Unicode kept
    {"@id": "ex:R1", "label": "capital", "type": "rdf:Property"},
    {"@id": "ex:R2", "label": "largest city", "type": "rdf:Property"},
    {"@id": "ex:R3", "label": "located in", "type": "rdf:Property"},
    {"@id": "ex:R4", "label": "near", "type": "rdf:Property"},
    {"@id": "ex:x", "ex:R4": [{"@id": "ex:f"}, {"@id": "ex:p"}], "label": "x", "type": "ex:Country"},
    {"@id": "ex:z", "label": "Ōsaka", "type": "ex:Country"},
    {"@id": "ex:f", "ex:R2": {"@id": "ex:p"}, "label": "France", "type": "ex:Country"},
    {"@id": "ex:p", "ex:R3": {"@id": "ex:f"}, "label": "Zürich", "type": "ex:Country"},
]


@pytest.mark.parametrize("name", list(BY_HAND))
def test_a_small_graph_is_written_as_the_generator_s_rules_say(name):
    graph, units = kgllm_graph(SMALL, ["capital", "largest city", "located in", "near"])
    assert FORMATS.get(name).render(graph, units).text == BY_HAND[name]


def test_a_small_graph_in_json_ld3_is_the_same_graph_as_its_turtle():
    graph, units = kgllm_graph(SMALL, ["capital", "largest city", "located in", "near"])
    text = FORMATS.get("kgllm_json_ld3").render(graph, units).text
    assert text == json.dumps({"@context": CONTEXT, "@graph": SMALL_JSON_LD}, indent=2, sort_keys=True,
                              ensure_ascii=False)
    assert isomorphic(rdflib.Graph().parse(data=text, format="json-ld"),
                      rdflib.Graph().parse(data=BY_HAND["kgllm_rdf_turtle3"], format="turtle"))


@pytest.mark.parametrize("name", list(FILES))
def test_what_is_lost_is_said_and_is_lost(name):
    format_ = FORMATS.get(name)
    assert not format_.lossless
    for loss in ("node types", "properties", "second relation between the same source and target"):
        assert loss in format_.lost
    graph, units = kgllm_graph(SMALL, ["capital", "largest city", "located in", "near"])
    rendering = format_.render(graph, units)
    pair = [record for record in rendering.records if "e:f|capital|p" in record.unit_keys]
    assert [record.unit_keys for record in pair] == [("e:f|capital|p", "e:f|largest city|p")]
    decoded = format_.decode(rendering.text)
    assert not [edge for edge in decoded.edges if edge.relation == "capital"]  # the pair kept largest city only
    assert all(not node.properties or dict(node.properties).keys() == {"label"} for node in decoded.nodes)
    assert {node.type for node in decoded.nodes} <= {"node", "unknown"}


@pytest.mark.parametrize("name", list(FILES))
def test_any_subset_of_units_renders_and_decodes(name):
    graph, units = kgllm_graph(COUNTRIES)
    format_ = FORMATS.get(name)
    for subset in (units[::3], [unit for unit in units if not unit.is_node], [unit for unit in units if unit.is_node],
                   units[-5:]):
        format_.decode(format_.render(graph, subset).text)
