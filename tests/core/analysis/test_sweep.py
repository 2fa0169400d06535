"""Sweeps: one tidy row per (query, format, ordering, layout, policy, budget), for any registered format."""

from __future__ import annotations

import json

import pytest
from pandas.testing import assert_frame_equal

from core.analysis.sweep import COLUMNS, cheapest_lossless, rendering_summary, sweep
from core.budget.policies import cut
from core.errors import ParameterError, UnknownNameError
from core.formats import FORMATS
from core.io.generate import service_graph
from core.memory.rendering_cache import DEFAULT_CACHE_BYTES, rendering_cache
from core.pipeline import accounted_rendering
from core.queries import DEPENDENCIES, IMPACT_OWNERS, query
from core.queries import QUERIES as QUERIES_BY_NAME
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs
from core.retrieval.seeds import seeds_from_question
from core.specs import RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS

GRAPH = service_graph(12, 14, 7)
QUERIES = [query(IMPACT_OWNERS, failed="db-identity"), query(DEPENDENCIES, start="svc-web", hops=2)]


def test_one_row_per_cut_and_query_for_every_registered_format():
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES, budgets=[128, 4096]))
    assert list(frame.columns) == ["graph_hash", "tokenizer", "hops", *COLUMNS]
    expected = 0
    for name in FORMATS:
        layouts = 2 if FORMATS.get(name).interleaves else 1
        expected += layouts * len(ORDERINGS) * 2 * 2 * len(QUERIES)
    assert len(frame) == expected
    assert set(frame["format"]) == set(FORMATS.names())
    sectioned = [name for name in FORMATS if not FORMATS.get(name).interleaves]
    assert not ((frame["format"].isin(sectioned)) & (frame["layout"] == "interleaved")).any()


def test_untruncated_lossless_formats_answer_every_query():
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES, budgets=[100_000]))
    lossless = frame[frame["lossless"]]
    assert (lossless["traversal_accuracy"] == 1.0).all() and lossless["parse_ok"].all()
    assert (lossless["records_kept"] == lossless["records_total"]).all()
    assert (lossless["evidence_survival"] == 1.0).all() and (lossless["candidate_recall"] == 1.0).all()


def test_rows_carry_the_sweep_s_settings_and_the_oracle_label():
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES, format_names=["jsonl"], budgets=[300],
                                       shuffle_seed=5))
    shuffled = frame[frame["ordering"] == "shuffled"]
    assert (shuffled["shuffle_seed"] == 5).all() and frame[frame["ordering"] != "shuffled"]["shuffle_seed"].isna().all()
    assert set(frame[frame["oracle"]]["ordering"]) == {"evidence_first"}
    parameters = frame.attrs["parameters"]
    assert parameters["seeds"] == ["db-identity", "svc-web"] and parameters["budgets"] == [300]
    assert (frame["graph_hash"] == GRAPH.sha256).all() and (frame["tokenizer"] == "o200k_base").all()
    assert (frame["question"] == frame["query"].map({q.label: q.question for q in QUERIES})).all()


def test_reported_tokens_are_those_of_the_cut_and_fit_the_budget():
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES[:1], format_names=["compact_json", "csv"],
                                       ordering_names=["hop_tiers"], budgets=[200, 700]))
    tokenizer = TOKENIZERS.get("o200k_base")
    for row in frame.itertuples():
        format_ = FORMATS.get(row.format)
        accounting = accounted_rendering(RenderingSpec(GRAPH, format_, ORDERINGS.get("hop_tiers"), row.layout,
                                                       OrderingInputs(seeds=("db-identity",)), tokenizer))
        result = cut(accounting, format_, row.policy, row.budget)
        assert row.tokens == tokenizer.count(result.text) and row.budgeted_tokens <= row.budget
        assert json.loads(row.first_dropped_keys) == list(result.first_dropped_keys)


def test_progress_reports_every_cut():
    calls = []
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES[:1], format_names=["typed_edges"], budgets=[256, 512]),
                  progress=lambda done, total, label: calls.append((done, total, label)))
    assert [done for done, _, _ in calls] == list(range(1, len(frame) + 1))
    assert {total for _, total, _ in calls} == {len(frame)} and "typed_edges" in calls[0][2]


def test_seeds_can_come_from_a_question_and_a_radius_renders_only_the_region():
    seeds = seeds_from_question(GRAPH, "what breaks if db-identity fails?")
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES[:1], seeds=seeds, format_names=["jsonl"],
                                       ordering_names=["hop_tiers"], budgets=[10_000], radius=1))
    assert (frame["records_total"] == 3).all()  # db-identity, svc-auth and the edge between them
    assert frame.attrs["parameters"]["radius"] == 1


def test_the_cache_is_reused_across_sweeps():
    cache = rendering_cache(DEFAULT_CACHE_BYTES)
    sweep(SweepSpec.from_names(GRAPH, QUERIES[:1], format_names=["csv"], ordering_names=["canonical"],
                               budgets=[256]), cache=cache)
    size = len(cache)
    sweep(SweepSpec.from_names(GRAPH, QUERIES[:1], format_names=["csv"], ordering_names=["canonical"],
                               budgets=[512, 1024]), cache=cache)
    assert size == len(cache) == 2  # two layouts, built once


def test_bad_requests_fail_with_clear_errors():
    with pytest.raises(UnknownNameError):
        sweep(SweepSpec.from_names(GRAPH, QUERIES, format_names=["protobuf"]))
    with pytest.raises(UnknownNameError):
        sweep(SweepSpec.from_names(GRAPH, QUERIES, ordering_names=["random"]))
    with pytest.raises(ParameterError):
        sweep(SweepSpec.from_names(GRAPH, [], format_names=["csv"]))
    with pytest.raises(ParameterError):
        sweep(SweepSpec.from_names(GRAPH, QUERIES, budgets=[-5]))
    with pytest.raises(ParameterError):
        sweep(SweepSpec.from_names(GRAPH, QUERIES, budgets=[]))
    with pytest.raises(ParameterError):
        sweep(SweepSpec.from_names(GRAPH, QUERIES, layouts=["spiral"]))
    with pytest.raises(ParameterError):
        sweep(SweepSpec.from_names(GRAPH, QUERIES, policy_names=["truncate"]))
    with pytest.raises(ParameterError) as raised:
        sweep(SweepSpec.from_names(GRAPH, {"q": query(DEPENDENCIES, start="svc-web")}, seeds=["nope"],
                                   format_names=["csv"]))
    assert "nope" in str(raised.value)


def test_the_summary_describes_each_untruncated_rendering():
    summary = rendering_summary(GRAPH, QUERIES)
    assert list(summary["format"]) == FORMATS.names()
    lossless = summary[summary["lossless"]]
    assert lossless["round_trip"].all() and (lossless["traversal_accuracy"] == 1.0).all()
    assert (summary["total_tokens"] == summary["tokens"] + summary["grammar_tokens"]).all()


def test_without_seeds_only_orderings_that_need_none_run_and_no_recall_is_claimed():
    members = {"services": query(QUERIES_BY_NAME.get("t4_taxonomy_members"), taxonomy="service")}
    frame = sweep(SweepSpec.from_names(GRAPH, members, format_names=["jsonl"], ordering_names=["canonical", "shuffled"],
                                       budgets=[500]))
    assert frame["candidate_recall"].isna().all() and frame["coverage_tokens"].isna().all()
    with pytest.raises(ParameterError) as raised:
        sweep(SweepSpec.from_names(GRAPH, members, format_names=["jsonl"], ordering_names=["hop_tiers"],
                                   budgets=[500]))
    assert "no seeds" in str(raised.value)


# Metrics from kept units, proved by the decoder -------------------------------------------------

SAMPLE_BUDGETS = [0, 60, 400, 100_000]  # nothing, a small and a larger cut, the complete text
# Orderings that put different units first (tests/core/graph/test_kept.py covers every ordering).
SAMPLE_ORDERINGS = ["canonical", "shuffled", "hop_tiers", "evidence_first"]


def sample_sweep_arguments():
    from core.io.samples import samples
    for sample in samples():
        graph = sample.load()
        seed = sample.seeds[0] if sample.seeds else graph.nodes[0].id
        questions = [query(QUERIES_BY_NAME.get("typed_neighbours"), node=seed, relation=graph.edges[0].relation,
                           direction="both")]
        if sample.default_query() is not None:
            questions.append(sample.default_query())
        yield pytest.param(graph, questions, [seed], id=sample.name)


@pytest.mark.parametrize("graph, questions, seeds", list(sample_sweep_arguments()))
def test_on_every_sample_the_kept_unit_sweep_equals_the_decoding_sweep_cell_for_cell(graph, questions, seeds):
    from pandas.testing import assert_frame_equal
    spec = SweepSpec.from_names(graph, questions, seeds=seeds, budgets=SAMPLE_BUDGETS, ordering_names=SAMPLE_ORDERINGS)
    kept = sweep(spec, workers=1, verify=True)  # every cell computed both ways
    assert_frame_equal(kept, sweep(spec, workers=1, metrics_from="decoded"))
    assert kept["parse_ok"].any() and not kept["parse_ok"].all()  # cuts that parse and cuts that do not


def test_verify_names_the_first_cell_where_kept_units_and_decoding_disagree(monkeypatch):
    from core.analysis import sweep as sweep_module
    from core.errors import DecodeMismatchError
    real = sweep_module.answers
    monkeypatch.setattr(sweep_module, "answers", lambda query_, gold, reading: not real(query_, gold, reading))
    with pytest.raises(DecodeMismatchError) as raised:
        sweep(SweepSpec.from_names(GRAPH, QUERIES[:1], format_names=["csv"], ordering_names=["canonical"],
                                   layouts=["interleaved"], policy_names=["record"],
                                   budgets=[300]), workers=1, verify=True)
    message = str(raised.value)
    assert "traversal_accuracy" in message and "format csv" in message and "budget 300" in message
    assert "ordering canonical" in message and "policy record" in message


def test_cuts_that_hold_the_same_text_are_read_once(monkeypatch):
    from core.analysis import sweep as sweep_module
    decoded = []
    real = sweep_module.decode_cut
    monkeypatch.setattr(sweep_module, "decode_cut", lambda result, format_: decoded.append(result.budget)
                        or real(result, format_))
    frame = sweep(SweepSpec.from_names(GRAPH, QUERIES, format_names=["jsonl"], ordering_names=["canonical"],
                                       layouts=["interleaved"],
                                       budgets=[100_000, 200_000, 300]), workers=1, metrics_from="decoded")
    # record: the complete prefix once (shared by the raw cuts that are the complete text), 300 once; raw 300 once
    assert sorted(decoded) == [300, 300, 100_000] and len(frame) == 12
    decoded.clear()
    sweep(SweepSpec.from_names(GRAPH, QUERIES, format_names=["csv"], ordering_names=["canonical"],
                               layouts=["interleaved"], budgets=[100_000, 200_000, 300]), workers=1)
    assert decoded == [300]  # only the raw cut that ends inside a record is decoded
    decoded.clear()
    kept = sweep(SweepSpec.from_names(GRAPH, QUERIES, format_names=["jsonl"], ordering_names=["canonical"],
                                      layouts=["interleaved"], budgets=[100_000, 200_000, 300]), workers=1)
    assert decoded == []  # jsonl's partial last line alone says whether that raw cut parses
    assert_frame_equal(kept, frame)


def test_any_worker_count_gives_the_same_rows_in_the_same_order():
    from pandas.testing import assert_frame_equal
    spec = SweepSpec.from_names(GRAPH, QUERIES, format_names=["jsonl", "compact_json", "yaml"], budgets=[200, 900])
    calls = []
    pooled = sweep(spec, workers=2, progress=lambda done, total, label: calls.append(done))
    assert_frame_equal(pooled, sweep(spec, workers=1))
    assert calls == sorted(calls) and calls[-1] == len(pooled)


def test_the_cheapest_lossless_format_is_the_exact_one_with_the_fewest_tokens():
    summary = rendering_summary(GRAPH, QUERIES)
    exact = summary[summary["lossless"] & summary["round_trip"]]
    best = cheapest_lossless(summary)
    assert best in set(exact["format"]) and FORMATS.get(best).lossless
    assert int(exact.set_index("format").loc[best, "tokens"]) == exact["tokens"].min()
    only = summary["format"] == summary[~summary["lossless"]].sort_values("tokens")["format"].iloc[0]
    assert cheapest_lossless(summary.assign(lossless=only)) is None  # lossless in name, but no exact round trip
    assert cheapest_lossless(summary.assign(lossless=only, round_trip=only)) == summary[only]["format"].iloc[0]
    assert cheapest_lossless(summary.assign(lossless=False)) is None


def test_a_format_that_prints_hop_levels_is_cached_per_seed_set_even_in_canonical_order():
    local_ids, canonical = FORMATS.get("local_ids"), ORDERINGS.get("canonical")
    assert local_ids.uses_hops and not canonical.uses_seeds
    cache = rendering_cache(DEFAULT_CACHE_BYTES)
    tokenizer = TOKENIZERS.get("o200k_base")
    def spec(seeds: tuple[str, ...]) -> RenderingSpec:
        return RenderingSpec(GRAPH, local_ids, canonical, "nodes_then_edges", OrderingInputs(seeds=seeds), tokenizer)

    texts = [accounted_rendering(spec(seeds), cache=cache).rendering.text
             for seeds in (("svc-web",), ("db-identity",))]
    uncached = accounted_rendering(spec(("db-identity",))).rendering.text
    assert texts[0] != texts[1] == uncached and len(cache) == 2


def test_kept_views_that_keep_the_same_units_share_one_solve_across_formats(monkeypatch):
    from core.analysis import sweep as sweep_module
    solved = []
    real = sweep_module.answers
    monkeypatch.setattr(sweep_module, "answers", lambda query_, gold, reading: solved.append(reading)
                        or real(query_, gold, reading))
    arguments = dict(ordering_names=["canonical", "bfs_from_seeds"], layouts=["interleaved"], policy_names=["record"],
                     budgets=[0, 150, 400, 100_000])
    alone = sweep(SweepSpec.from_names(GRAPH, QUERIES, format_names=["jsonl"], **arguments), workers=1)
    once = len(solved)
    solved.clear()
    three = SweepSpec.from_names(GRAPH, QUERIES, format_names=["jsonl", "typed_edges", "arrows"], **arguments)
    both = sweep(three, workers=1)
    # the complete text keeps every unit in every format and ordering: solved once per query, not per rendering
    assert once and len(solved) < 3 * once
    assert_frame_equal(both[both["format"] == "jsonl"].reset_index(drop=True), alone)
    assert_frame_equal(both, sweep(three, workers=1, metrics_from="decoded"))
