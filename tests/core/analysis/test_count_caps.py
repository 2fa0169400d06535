"""Count caps in tokens: each cap's count equals a direct encode of the document holding the first N units."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis.count_caps import ANCHOR_ORDERING, count_caps
from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.hops import hop_units
from core.io.samples import load_sample
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, order_units
from core.specs import SweepSpec
from core.tokens import TOKENIZERS
from core.workbench import Workbench
from tests.strategies import graphs

GRAPH = load_sample("online-boutique")  # 13 nodes, 18 edges
SEEDS = ("cartservice",)
ENCODING = TOKENIZERS.get("o200k_base").encoding  # tiktoken's own Encoding: the other way to count


def spec_of(graph=GRAPH, seeds=SEEDS, **names) -> SweepSpec:
    from core.queries import QUERIES, query
    template = QUERIES.get(QUERIES.names()[0])
    return SweepSpec.from_names(graph, [query(template, **dict(zip(template.node_parameters, seeds)))], seeds=seeds,
                                **names)


def first_units(ordering_name: str, kind: str, count: int, graph=GRAPH, seeds=SEEDS, question: str = ""):
    """The first `count` nodes or edges of the ordering (units with their hop levels from the seeds, as hop-printing
    formats need), from core.retrieval and core.graph rather than the module under test."""
    ordered = order_units(graph, hop_units(graph, seeds), ORDERINGS.get(ordering_name), "nodes_then_edges",
                          OrderingInputs(seeds, question=question))
    return [unit for unit in ordered if unit.is_node == (kind == "nodes")][:count]


def direct_tokens(format_name: str, units, graph=GRAPH) -> int:
    return len(ENCODING.encode_ordinary(FORMATS.get(format_name).render(graph, units).text))


@pytest.mark.parametrize("kind", ["edges", "nodes"])
def test_every_formats_cap_costs_what_its_n_unit_rendering_encodes_to(kind):
    costs = count_caps(spec_of(ordering_names=[ANCHOR_ORDERING]), [1, 5, 12], kind=kind)
    assert {item.format_name for item in costs} == set(FORMATS.names())
    for item in costs:
        expected = direct_tokens(item.format_name, first_units(ANCHOR_ORDERING, kind, item.cap))
        assert (item.format_name, item.cap, item.anchor.tokens) == (item.format_name, item.cap, expected)
        assert item.anchor.held == item.cap


def test_formats_whose_records_group_units_are_rendered_the_others_read_off_prefix_counts():
    costs = {item.format_name: item for item in count_caps(spec_of(ordering_names=[ANCHOR_ORDERING]), [5])}
    assert costs["csv"].anchor.method == costs["jsonl"].anchor.method == "prefix"
    assert costs["semantic_text"].anchor.method == "rendered"  # a page holds a node's edges together


def test_a_cap_of_records_is_the_prefix_of_the_formats_own_rendering():
    costs = {item.format_name: item for item in count_caps(spec_of(ordering_names=[ANCHOR_ORDERING]), [4],
                                                           kind="records")}
    ordered = order_units(GRAPH, hop_units(GRAPH, SEEDS), ORDERINGS.get(ANCHOR_ORDERING), "nodes_then_edges",
                          OrderingInputs(SEEDS))
    for name in ("csv", "semantic_text", "pretty_json"):
        rendering = FORMATS.get(name).render(GRAPH, ordered)
        assert costs[name].anchor.tokens == len(ENCODING.encode_ordinary(rendering.prefix_text(4)))
        assert costs[name].anchor.units == sum(len(record.unit_keys) for record in rendering.records[:4])
    assert costs["semantic_text"].anchor.units > 4 == costs["csv"].anchor.units  # a datasheet page per node


def test_the_spread_covers_every_ordering_that_does_not_read_the_answer():
    (item,) = count_caps(spec_of(format_names=["csv"]), [6], kind="edges")
    assert item.orderings[0] == ANCHOR_ORDERING and "evidence_first" not in item.orderings
    assert set(item.orderings) == {name for name in ORDERINGS.names() if not ORDERINGS.get(name).oracle}
    question = spec_of().queries[0][1].question_on(GRAPH)  # question_bm25 ranks by it
    direct = [direct_tokens("csv", first_units(name, "edges", 6, question=question)) for name in item.orderings]
    assert list(item.spread) == direct
    assert (item.minimum, item.maximum) == (min(direct), max(direct)) and item.minimum <= item.median <= item.maximum


def test_a_cap_above_what_the_graph_holds_holds_all_there_are():
    (item,) = count_caps(spec_of(format_names=["jsonl"], ordering_names=[ANCHOR_ORDERING]), [1000])
    assert item.anchor.held == len(GRAPH.edges) == 18
    assert item.anchor.tokens == direct_tokens("jsonl", first_units(ANCHOR_ORDERING, "edges", 18))


def test_each_tokenizer_counts_its_own():
    costs = count_caps(spec_of(format_names=["csv"], ordering_names=[ANCHOR_ORDERING]), [10],
                       tokenizer_names=["o200k_base", "llama3"])
    llama = TOKENIZERS.get("llama3")
    assert [item.tokenizer_name for item in costs] == ["o200k_base", "llama3"]
    assert costs[1].anchor.tokens == llama.count(FORMATS.get("csv").render(
        GRAPH, first_units(ANCHOR_ORDERING, "edges", 10)).text)


def test_the_workbench_keeps_each_kinds_rendering_for_the_next_call():
    bench = Workbench()
    spec = spec_of(format_names=["csv"], ordering_names=[ANCHOR_ORDERING])
    first = bench.count_caps(spec, [3, 30])
    held = len(bench.renderings)
    assert bench.count_caps(spec, [3, 30]) == first and len(bench.renderings) == held >= 1


@pytest.mark.parametrize("caps, kind", [([0], "edges"), ([], "edges"), ([3], "triangles")])
def test_bad_caps_are_refused_before_any_work(caps, kind):
    with pytest.raises(ParameterError):
        count_caps(spec_of(), caps, kind=kind)


@pytest.mark.parametrize("format_name", ["csv", "compact_json", "typed_edges", "toon"])
@settings(max_examples=15)
@given(graph=graphs(max_nodes=5, max_edges=6), kind=st.sampled_from(["edges", "nodes", "records"]))
def test_more_units_never_cost_fewer_tokens_in_a_prefix_rendering(format_name, graph, kind):
    spec = spec_of(graph, (graph.nodes[0].id,), format_names=[format_name], ordering_names=[ANCHOR_ORDERING])
    counts = [item.anchor.tokens for item in count_caps(spec, range(1, 10), kind=kind)]
    assert counts == sorted(counts)


def test_caps_are_read_as_a_person_types_them():
    from core.analysis.count_caps import parse_caps
    assert parse_caps(" 30, 100,30") == (30, 100)
    for text in ("", "30,,100", "-3", "ten"):
        with pytest.raises(ParameterError):
            parse_caps(text)
