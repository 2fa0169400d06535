"""The workbench: the data flow from specs, exact against the tokenizer itself, and the only place renderings are kept."""

from __future__ import annotations

import contextlib
import io
import threading

import numpy as np
import pandas as pd

import core
from core import pipeline
from core.analysis.sweep import sweep
from core.graph.derived import memo_of
from core.graph.kept import positions_for
from core.io.samples import load_sample
from core.queries import IMPACT, query
from core.retrieval.ordering import layouts_for
from core.specs import RenderingSpec, SweepSpec
from core.workbench import Workbench

GRAPH = load_sample("reference-services")
QUERY = query(IMPACT, failed="db-identity", node_type="service", relation="depends_on")


def test_the_api_example_prints_each_formats_exact_tokens():
    """The example in core/__init__.py (and the README), run as written."""
    example = core.__doc__.split("\n\n")[1]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile("\n".join(line[4:] for line in example.splitlines()), "example", "exec"), {})
    graph, o200k = core.load_sample("online-boutique"), core.TOKENIZERS.get("o200k_base")
    expected = [f"{name} {o200k.count(core.FORMATS.get(name).render(graph, sorted_units(graph)).text)} tokens"
                for name in ("pretty_json", "csv", "semantic_text")]
    assert printed.getvalue().splitlines() == expected


def sorted_units(graph):
    from core.graph.units import graph_units
    from core.retrieval import ORDERINGS
    from core.retrieval.ordering import OrderingInputs, order_units
    return order_units(graph, graph_units(graph), ORDERINGS.get("canonical"), "nodes_then_edges", OrderingInputs())


def test_an_accounting_is_built_once_per_key_and_counts_exactly():
    bench = Workbench()
    spec = RenderingSpec.from_names(GRAPH, "jsonl", tokenizer_name="llama3")
    first = bench.account(spec)
    assert bench.account(RenderingSpec.from_names(GRAPH, "jsonl", tokenizer_name="llama3")) is first
    tokenizer = spec.tokenizer
    for records in (0, 1, len(first.rendering.records) // 2, len(first.rendering.records)):
        assert first.counts[records] == tokenizer.count(first.rendering.prefix_text(records))
    bench.clear()
    assert bench.account(spec) is not first and len(bench.renderings) == 1


def test_a_cut_keeps_whole_records_within_the_budget_grammar_included():
    bench = Workbench()
    spec = RenderingSpec.from_names(GRAPH, "csv")
    grammar = spec.tokenizer.count(spec.format.grammar)
    kept = []
    for budget in (0, 40, 200, 1000, 100_000):
        result = bench.cut(spec, budget)
        kept.append(result.records_kept)
        if result.records_kept:
            assert result.tokens == spec.tokenizer.count(result.text) and result.tokens + grammar <= budget
            assert spec.format.decode(result.document)  # whole records: the cut parses
    assert kept[0] == 0 and kept == sorted(kept) and kept[-1] == result.records_total


def test_measure_equals_the_sweeps_row_for_the_same_cut():
    bench = Workbench()
    sweep_spec = SweepSpec.from_names(GRAPH, [QUERY], format_names=["typed_edges"], ordering_names=["hop_tiers"],
                                      layouts=["nodes_then_edges"], policy_names=["record"], budgets=[150, 600])
    rows = bench.sweep(sweep_spec, workers=1)
    spec = sweep_spec.rendering(sweep_spec.formats[0], sweep_spec.orderings[0], "nodes_then_edges", QUERY)
    for row in rows.itertuples():
        metrics = bench.measure(spec, int(row.budget), QUERY)
        assert (metrics.tokens, metrics.records_kept, metrics.evidence_survival, metrics.traversal_accuracy,
                metrics.candidate_recall) == (row.tokens, row.records_kept, row.evidence_survival,
                                              row.traversal_accuracy, row.candidate_recall)


def test_a_workbench_sweep_equals_the_stage_function_and_keeps_its_renderings():
    bench = Workbench()
    spec = SweepSpec.from_names(GRAPH, [QUERY], format_names=["csv", "toon"], ordering_names=["canonical"],
                                budgets=[256, 1024])
    frame = bench.sweep(spec, workers=1)
    pd.testing.assert_frame_equal(frame, sweep(spec, workers=1))
    layouts = sum(len(layouts_for(format_)) for format_ in spec.formats)
    assert len(bench.renderings) == layouts  # one per (format, ordering, layout)


# Renderings accounted at the same time, in threads of this process: the same accountings as those made one by
# one, each built once however many ask for it, and indexed for reading when they arrive.

SPECS = [RenderingSpec.from_names(GRAPH, name, ordering_name=ordering, tokenizer_name="o200k_base", seeds=seeds)
         for name, ordering, seeds in (("pretty_json", "canonical", ()), ("compact_json", "canonical", ()),
                                       ("csv", "hop_tiers", ("db-identity",)))]


def same(made, expected) -> bool:
    return (made.rendering == expected.rendering and np.array_equal(made.counts, expected.counts)
            and np.array_equal(made.full_tokens, expected.full_tokens) and made.source == expected.source
            and made.tokenizer is expected.tokenizer
            and all(made.count(records, "\n") == expected.count(records, "\n") for records in range(made.records + 1)))


def counted_alone(spec: RenderingSpec):
    return Workbench().account(spec)


def noting_counts(monkeypatch) -> list[tuple[str, str]]:
    """(format, thread name) of every count the workbench makes."""
    counts: list[tuple[str, str]] = []
    original = pipeline.prefix_tokens
    monkeypatch.setattr(pipeline, "prefix_tokens", lambda rendering, *args, **options: counts.append(
        (rendering.format_name, threading.current_thread().name)) or original(rendering, *args, **options))
    return counts


def test_accountings_made_at_once_equal_those_made_one_by_one():
    bench = Workbench()
    made = bench.account_many(SPECS)
    assert all(same(made_one, counted_alone(spec)) for made_one, spec in zip(made, SPECS))
    assert [bench.account(spec) for spec in SPECS] == made  # kept, as account keeps them


def test_all_but_the_last_are_counted_in_threads_of_their_own_and_each_once(monkeypatch):
    counts = noting_counts(monkeypatch)
    Workbench().account_many(SPECS)
    assert sorted(name for name, _ in counts) == sorted(spec.format.name for spec in SPECS)  # once each
    here = threading.current_thread().name
    assert [name for name, thread in counts if thread == here] == ["csv"]  # the last, here


def test_accountings_started_in_the_background_are_waited_for_not_built_again(monkeypatch):
    bench = Workbench()
    counts = noting_counts(monkeypatch)
    assert bench.account_in_background(SPECS[:2]) == SPECS[:2]
    assert all(bench.renderings.building(spec.key) or spec.key in bench.renderings for spec in SPECS[:2])
    assert bench.account_in_background(SPECS[:2]) == []  # already under way: nothing starts twice
    made = [bench.account(spec) for spec in SPECS[:2]]
    assert sorted(name for name, _ in counts) == ["compact_json", "pretty_json"]  # waited for, not built again
    assert all(same(made_one, counted_alone(spec)) for made_one, spec in zip(made, SPECS[:2]))


def test_renderings_made_while_others_count_come_back_indexed_for_reading():
    made = Workbench().account_many(SPECS[:2])  # pretty_json in a thread of its own, compact_json here meanwhile
    for accounting in made:
        memo = memo_of(accounting.rendering)
        assert {"record of key", "kept node and edge counts", "unit positions"} <= memo.keys()
        assert memo["unit positions"] is positions_for(accounting.rendering, GRAPH, accounting.record_of_key)
