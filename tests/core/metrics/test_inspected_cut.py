"""The inspected cut's metrics equal measure_cut on the decoded document, and a budget step re-reads nothing."""

from __future__ import annotations

import pytest

import core.metrics.inspected_cut as inspected
from core.budget import POLICIES
from core.budget.policies import cut
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.metrics.cut_metrics import KeptKeys, decode_cut, measure_cut
from core.metrics.inspected_cut import inspected_metrics, remembered_documents
from core.queries import IMPACT_OWNERS, query
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens
from core.workbench import Workbench

GRAPH = service_graph(12, 24, 3)
QUESTION = query(IMPACT_OWNERS, failed="db-identity")
GOLD = QUESTION.solve(GRAPH)
O200K = TOKENIZERS.get("o200k_base")


def accounted(name: str):
    units = graph_units(GRAPH)
    return prefix_tokens(FORMATS.get(name).render(GRAPH, units), O200K, source=(GRAPH, units))


def decoded_metrics(result, format_, accounting):
    """The page's figures before: decode the document, count every kept key."""
    kept = frozenset(result.kept_keys) if result.selection else KeptKeys(accounting.record_of_key,
                                                                               result.records_kept)
    return measure_cut(result, QUESTION, GOLD, decode_cut(result, format_), kept=kept)


@pytest.mark.parametrize("name", ["pretty_json", "compact_json", "jsonl", "csv", "untyped_pairs", "turtle", "toon"])
def test_every_figure_equals_the_decoded_documents(name):
    format_ = FORMATS.get(name)
    accounting = accounted(name)
    whole = cut(accounting, format_, "record", 10**7).budgeted_tokens
    for policy in tuple(POLICIES.names()):
        for budget in sorted({0, whole // 5, whole // 2, whole // 2 + 1, whole}):
            result = cut(accounting, format_, policy, budget)
            ours = inspected_metrics(result, format_, accounting, GRAPH, QUESTION, GOLD)
            assert ours == decoded_metrics(result, format_, accounting), (policy, budget)
            again = inspected_metrics(result, format_, accounting, GRAPH, QUESTION, GOLD)  # remembered: the same
            assert again == ours, (policy, budget)


def test_a_budget_step_that_keeps_the_same_records_reads_nothing_again(monkeypatch):
    format_ = FORMATS.get("compact_json")
    accounting = accounted("compact_json")
    half = cut(accounting, format_, "record", 10**7).budgeted_tokens // 2
    budget = next(budget for budget in range(half, half + 400)  # one step right that keeps the same records
                  if cut(accounting, format_, "record", budget + 1).records_kept
                  == cut(accounting, format_, "record", budget).records_kept)
    first, step = cut(accounting, format_, "record", budget), cut(accounting, format_, "record", budget + 1)
    before = inspected_metrics(first, format_, accounting, GRAPH, QUESTION, GOLD)
    reads = []
    original = inspected.read_cut
    monkeypatch.setattr(inspected, "read_cut", lambda *arguments: reads.append(1) or original(*arguments))
    after = inspected_metrics(step, format_, accounting, GRAPH, QUESTION, GOLD)
    assert reads == [] and after == before  # the same document: the same figures, none of them re-read
    more = next(cut(accounting, format_, "record", budget + extra) for extra in range(1, 400)
                if cut(accounting, format_, "record", budget + extra).records_kept > first.records_kept)
    moved = inspected_metrics(more, format_, accounting, GRAPH, QUESTION, GOLD)
    assert reads == [1] and moved.records_kept == more.records_kept  # another document is read once
    assert moved == decoded_metrics(more, format_, accounting)


def test_a_decoded_sections_cut_is_not_remembered():
    format_ = FORMATS.get("untyped_pairs")  # lossy: its sections cut is read by decoding the text
    accounting = accounted("untyped_pairs")
    result = cut(accounting, format_, "sections", cut(accounting, format_, "record", 10**7).budgeted_tokens // 2)
    assert decode_cut(result, format_).parse_ok
    inspected_metrics(result, format_, accounting, GRAPH, QUESTION, GOLD)
    assert remembered_documents(accounting) == 0
    inspected_metrics(cut(accounting, format_, "record", 300), format_, accounting, GRAPH, QUESTION, GOLD)
    assert remembered_documents(accounting) == 1  # a record prefix: a view of its kept units, light to keep



def test_a_raw_text_is_not_remembered_but_a_record_prefix_is():
    format_ = FORMATS.get("pretty_json")
    accounting = accounted("pretty_json")
    half = cut(accounting, format_, "record", 10**7).budgeted_tokens // 2
    raw = next(result for result in (cut(accounting, format_, "raw", half + extra) for extra in range(40))
               if result.document != accounting.prefix_text(result.records_kept))  # ends inside a record
    inspected_metrics(raw, format_, accounting, GRAPH, QUESTION, GOLD)
    assert remembered_documents(accounting) == 0  # its text is the key: megabytes on a large graph
    inspected_metrics(cut(accounting, format_, "record", half), format_, accounting, GRAPH, QUESTION, GOLD)
    assert remembered_documents(accounting) == 1


def test_the_workbench_measures_a_cut_it_was_given_as_measure_does_and_remembers_it_on_the_accounting():
    bench = Workbench()
    spec = RenderingSpec.from_names(GRAPH, "compact_json", tokenizer_name="o200k_base")
    budget = bench.cut(spec, 10**7).budgeted_tokens // 2
    result = bench.cut(spec, budget)
    assert bench.measure_cut(spec, result, QUESTION) == bench.measure(spec, budget, QUESTION)
    assert remembered_documents(bench.account(spec)) == 1
