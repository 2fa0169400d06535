"""The seed-anchored mechanism: with hop tiers and whole records, all of U_k(S) fits exactly at B = D_k(S)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.budget.policies import cut
from core.formats import FORMATS
from core.io.generate import service_graph
from core.metrics.coverage import candidate_recall, coverage_curve, coverage_rendering, coverage_tokens, seed_region
from core.pipeline import accounted_rendering, full_recall_budget
from core.retrieval.ordering import HOP_TIERS, OrderingInputs, layouts_for
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

GRAPH = service_graph(40, 80, 7)
O200K = TOKENIZERS.get("o200k_base")
INTERLEAVING = [name for name in FORMATS if FORMATS.get(name).interleaves]


def is_a_record_prefix(rendering, keys) -> bool:
    """True when the first records carry exactly these unit keys."""
    seen: set[str] = set()
    for record in rendering.records:
        if seen == keys:
            return True
        seen.update(record.unit_keys)
    return seen == keys


def recall_at(region, format_, layout, k, budget, radius=None):
    inputs = OrderingInputs(seeds=region.seeds, direction=region.direction)
    accounting = accounted_rendering(RenderingSpec(region.graph, format_, HOP_TIERS, layout, inputs, O200K,
                                                   radius), region=region)
    result = cut(accounting, format_, "record", budget)
    return candidate_recall(set(result.kept_keys), region.candidate_keys(k)), accounting, result


@pytest.mark.parametrize("name", INTERLEAVING)
@pytest.mark.parametrize("k", [0, 1, 2])
def test_whole_graph_interleaved_hop_tiers_cover_u_k_exactly_from_d_k_on(name, k):
    format_ = FORMATS.get(name)
    region = seed_region(GRAPH, ["db-identity"])
    d_k = coverage_tokens(region, format_, k, O200K)
    _, accounting, _ = recall_at(region, format_, "interleaved", k, d_k)
    needed = full_recall_budget(accounting, region.candidate_keys(k), O200K.count(format_.grammar))
    assert recall_at(region, format_, "interleaved", k, needed)[0] == 1.0
    assert recall_at(region, format_, "interleaved", k, needed - 1)[0] < 1.0
    if is_a_record_prefix(accounting.rendering, region.candidate_keys(k)):
        assert needed == d_k  # the prefix holding U_k(S) is the document of U_k(S)
    else:  # records that group a node with its edges bring farther units along, which cost tokens unless they
        # write nothing (the kgllm_ texts write no node: a node's record is empty)
        kept = set(recall_at(region, format_, "interleaved", k, needed)[2].kept_keys)
        brought = [record for record in accounting.rendering.records
                   if set(record.unit_keys) <= kept and not set(record.unit_keys) <= region.candidate_keys(k)]
        assert brought and (needed > d_k or all(record.text == "" for record in brought))


@pytest.mark.parametrize("name", FORMATS.names())
def test_rendering_only_the_candidate_region_covers_it_exactly_in_every_format_and_layout(name):
    format_ = FORMATS.get(name)
    region = seed_region(GRAPH, ["svc-auth"], "in")
    for layout in layouts_for(format_):
        d_k = coverage_tokens(region, format_, 2, O200K, layout=layout)
        assert recall_at(region, format_, layout, 2, d_k, radius=2)[0] == 1.0
        assert recall_at(region, format_, layout, 2, d_k - 1, radius=2)[0] < 1.0


def test_repeated_runs_give_identical_contexts():
    format_ = FORMATS.get("typed_edges")
    texts = set()
    for _ in range(3):
        region = seed_region(GRAPH, ["db-identity"])
        d_k = coverage_tokens(region, format_, 2, O200K)
        texts.add(recall_at(region, format_, "interleaved", 2, d_k)[2].text)
    assert len(texts) == 1


def test_d_k_counts_the_grammar_unless_switched_off_and_grows_with_k():
    format_ = FORMATS.get("jsonl")
    region = seed_region(GRAPH, ["db-identity"])
    with_grammar = coverage_tokens(region, format_, 1, O200K)
    without = coverage_tokens(region, format_, 1, O200K, count_grammar=False)
    assert with_grammar - without == O200K.count(format_.grammar)
    assert without == O200K.count(coverage_rendering(region, format_, 1).text)
    curve = coverage_curve(region, format_, O200K, max_hops=3)
    assert [k for k, _, _ in curve] == [0, 1, 2, 3]
    assert all(earlier[1] < later[1] and earlier[2] < later[2] for earlier, later in pairwise(curve))


def test_recall_of_nothing_is_complete():
    assert candidate_recall({"n:a"}, set()) == 1.0
    assert candidate_recall({"n:a"}, {"n:a", "n:b"}) == 0.5


@pytest.mark.parametrize("name", INTERLEAVING)
@cross_product(40)
@given(graph=graphs(max_nodes=6, max_edges=8), data=st.data())
def test_the_transition_sits_at_d_k_on_adversarial_graphs(name, graph, data):
    format_ = FORMATS.get(name)
    region = seed_region(graph, [data.draw(st.sampled_from(graph.nodes)).id], data.draw(st.sampled_from(
        ["out", "in", "both"])))
    k = data.draw(st.integers(0, 3))
    d_k = coverage_tokens(region, format_, k, O200K)
    assert recall_at(region, format_, "interleaved", k, d_k, radius=k)[0] == 1.0
    assert recall_at(region, format_, "interleaved", k, d_k - 1, radius=k)[0] < 1.0
    _, accounting, _ = recall_at(region, format_, "interleaved", k, d_k)
    needed = full_recall_budget(accounting, region.candidate_keys(k), O200K.count(format_.grammar))
    assert recall_at(region, format_, "interleaved", k, needed)[0] == 1.0
    assert recall_at(region, format_, "interleaved", k, needed - 1)[0] < 1.0
    if is_a_record_prefix(accounting.rendering, region.candidate_keys(k)):
        assert needed == d_k
