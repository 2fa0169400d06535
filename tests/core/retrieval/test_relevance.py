"""Retriever orderings without the oracle: PageRank from the seeds, centrality, BM25, and `+ends`."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.hops import hop_units
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, ends_arranged, order_units
from core.retrieval.relevance import bm25_scores, centrality, personalized_pagerank, unit_text

# a - b - c - d, and a hub h linked to x, y, z (not reachable from a)
CHAIN = Graph.build([Node(name, "thing") for name in ("a", "b", "c", "d", "h", "x", "y", "z")],
                    [Edge("a", "links", "b"), Edge("b", "links", "c"), Edge("c", "links", "d"),
                     Edge("h", "links", "x"), Edge("h", "links", "y"), Edge("h", "links", "z"),
                     Edge("x", "links", "y")])

SERVICES = Graph.build(
    [Node("db-identity", "database", (("label", "Identity DB"),)), Node("svc-auth", "service", (("label", "Auth"),)),
     Node("svc-web", "service", (("label", "Web shop"),)), Node("team-growth", "team")],
    [Edge("svc-auth", "depends_on", "db-identity"), Edge("svc-web", "depends_on", "svc-auth"),
     Edge("svc-web", "owned_by", "team-growth")])


def ordered_keys(graph: Graph, name: str, inputs: OrderingInputs, layout: str = "nodes_then_edges") -> list[str]:
    return [unit.key for unit in order_units(graph, hop_units(graph, inputs.seeds), ORDERINGS.get(name), layout,
                                             inputs)]


def test_personalized_pagerank_equals_the_leading_eigenvector_of_networkx_google_matrix():
    for direction, graph in (("out", CHAIN.to_networkx()), ("both", CHAIN.to_networkx().to_undirected())):
        nodes = [node.id for node in CHAIN.nodes]
        if direction == "both":  # an undirected edge walks both ways: a directed copy of each, as ours does
            graph = nx.MultiDiGraph(graph.to_directed())
        matrix = nx.google_matrix(graph, alpha=0.85, personalization={"a": 1.0}, nodelist=nodes)
        values, vectors = np.linalg.eig(matrix.T)
        stationary = np.real(vectors[:, np.argmax(np.real(values))])
        stationary = stationary / stationary.sum()
        ours = personalized_pagerank(CHAIN, ["a"], direction)
        assert np.allclose([ours[node] for node in nodes], stationary, atol=1e-9)


def test_personalized_pagerank_orders_by_closeness_to_the_seed_and_puts_unreached_nodes_last_by_key():
    ordered = ordered_keys(CHAIN, "personalized_pagerank", OrderingInputs(seeds=("a",)))
    # b outranks the seed: every walk leaving a goes to b, and b also collects walks back from c
    assert ordered[:8] == ["n:b", "n:a", "n:c", "n:d", "n:h", "n:x", "n:y", "n:z"]
    # an edge ranks with its weaker endpoint: a->b, then b->c, then c->d; the unreached edges by key
    assert ordered[8:11] == ["e:a|links|b", "e:b|links|c", "e:c|links|d"]
    assert ordered[11:] == sorted(ordered[11:])


def test_centrality_puts_the_densest_core_first_then_the_highest_degree():
    figures = centrality(CHAIN)
    assert figures["h"] == (2, 3) and figures["x"] == (2, 2) and figures["a"] == (1, 1) and figures["b"] == (1, 2)
    ordered = ordered_keys(CHAIN, "centrality", OrderingInputs(seeds=("a",)))
    assert ordered[:8] == ["n:h", "n:x", "n:y", "n:b", "n:c", "n:a", "n:d", "n:z"]


def test_bm25_ranks_the_units_that_name_the_question_words_first():
    question = "Which services fail if the Identity DB fails?"
    units = graph_units(SERVICES)
    scores = bm25_scores(SERVICES, units, question)
    assert unit_text(SERVICES, units[0]) == "db-identity database Identity DB"
    assert scores["n:db-identity"] > scores["e:svc-auth|depends_on|db-identity"] > 0
    assert scores["n:team-growth"] == scores["e:svc-web|owned_by|team-growth"] == 0
    ordered = ordered_keys(SERVICES, "question_bm25", OrderingInputs(seeds=("db-identity",), question=question))
    assert ordered[0] == "n:db-identity"
    assert ordered.index("e:svc-auth|depends_on|db-identity") < ordered.index("e:svc-web|owned_by|team-growth")


def test_bm25_with_no_matching_word_keeps_the_canonical_order_and_without_a_question_reads_the_seed_names():
    inputs = OrderingInputs(seeds=("db-identity",), question="zebra?")
    assert ordered_keys(SERVICES, "question_bm25", inputs) == ordered_keys(SERVICES, "canonical", inputs)
    assert ordered_keys(SERVICES, "question_bm25", OrderingInputs(seeds=("svc-web",)))[0] == "n:svc-web"
    with pytest.raises(ParameterError, match="question text or seeds"):
        order_units(SERVICES, graph_units(SERVICES), ORDERINGS.get("question_bm25"), "nodes_then_edges",
                    OrderingInputs())


def test_ends_puts_ranks_one_three_five_in_front_and_two_four_at_the_back():
    assert ends_arranged([1, 2, 3, 4, 5]) == [1, 3, 5, 4, 2]
    assert ends_arranged([1, 2, 3, 4]) == [1, 3, 4, 2]
    inputs = OrderingInputs(seeds=("a",))
    ranked = [key for key in ordered_keys(CHAIN, "personalized_pagerank", inputs) if key.startswith("n:")]
    ends = [key for key in ordered_keys(CHAIN, "personalized_pagerank+ends", inputs) if key.startswith("n:")]
    assert ends[0] == ranked[0] and ends[-1] == ranked[1] and ends == ranked[0::2] + ranked[1::2][::-1]


def test_only_ranked_orderings_have_an_ends_variant_and_variants_are_not_listed_as_orderings():
    assert "canonical+ends" not in ORDERINGS and "question_bm25+ends" in ORDERINGS
    with pytest.raises(ParameterError, match="not a ranking"):
        ORDERINGS.get("shuffled+ends")
    assert not any(name.endswith("+ends") for name in ORDERINGS.names())
    assert ORDERINGS.get("evidence_first+ends").oracle


@pytest.mark.parametrize("name", ["personalized_pagerank", "centrality", "question_bm25", "question_bm25+ends"])
def test_a_retriever_ordering_writes_the_same_unit_order_in_every_one_unit_per_record_format(name):
    inputs = OrderingInputs(seeds=("db-identity",), question="Which services fail if the Identity DB fails?")
    expected = ordered_keys(SERVICES, name, inputs)
    units = order_units(SERVICES, hop_units(SERVICES, inputs.seeds), ORDERINGS.get(name), "nodes_then_edges", inputs)
    for format_name in ("jsonl", "csv", "typed_edges", "compact_json"):
        rendering = FORMATS.get(format_name).render(SERVICES, units)
        written = [key for record in rendering.records for key in record.unit_keys]
        assert written == expected, format_name
