"""Reading a cut from its kept units gives what decoding its document gives, for every format and policy."""

from __future__ import annotations

import pytest

from core.budget.policies import ALL_POLICIES, cut
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.metrics.cut_metrics import answers, decode_cut
from core.metrics.cut_reading import document_identity, read_cut
from core.queries import IMPACT_OWNERS, query
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

GRAPH = service_graph(12, 24, 3)
QUESTION = query(IMPACT_OWNERS, failed="db-identity")
GOLD = QUESTION.solve(GRAPH)
O200K = TOKENIZERS.get("o200k_base")


def accounted(name: str):
    return prefix_tokens(FORMATS.get(name).render(GRAPH, graph_units(GRAPH)), O200K, source=(GRAPH, graph_units(GRAPH)))


@pytest.mark.parametrize("name", FORMATS.names())
def test_the_reading_parses_and_answers_as_the_decoded_document_does(name):
    format_ = FORMATS.get(name)
    accounting = accounted(name)
    whole = cut(accounting, format_, "record", 10**7).budgeted_tokens
    for policy in ALL_POLICIES:
        for budget in sorted({0, 40, whole // 7, whole // 3, whole // 2 + 1, whole - 1, whole}):
            result = cut(accounting, format_, policy, budget)
            read, decoded = read_cut(result, format_, accounting, GRAPH), decode_cut(result, format_)
            where = (policy, budget)
            assert read.parse_ok == decoded.parse_ok and read.error == decoded.error, where
            assert answers(QUESTION, GOLD, read) == answers(QUESTION, GOLD, decoded), where
            if read.parse_ok:
                assert len(read.graph.nodes) == len(decoded.graph.nodes), where
                assert len(read.graph.edges) == len(decoded.graph.edges), where


def test_a_record_cut_of_a_lossless_format_is_read_without_decoding(monkeypatch):
    import core.metrics.cut_reading

    monkeypatch.setattr(core.metrics.cut_reading, "decode_cut", lambda *_: pytest.fail("decoded the document"))
    format_ = FORMATS.get("compact_json")
    accounting = accounted("compact_json")
    result = cut(accounting, format_, "record", 600)
    assert 0 < result.records_kept < result.records_total
    assert read_cut(result, format_, accounting, GRAPH).parse_ok


def test_a_record_cut_and_a_raw_cut_ending_at_its_records_are_the_same_document():
    format_ = FORMATS.get("jsonl")
    accounting = accounted("jsonl")
    record = cut(accounting, format_, "record", 500)
    raw = cut(accounting, format_, "raw", record.tokens)
    assert document_identity(record, accounting) == ("prefix", record.records_kept)
    assert document_identity(raw, accounting) == (("prefix", raw.records_kept) if raw.document == record.document
                                                  else ("raw", raw.document))
    assert document_identity(cut(accounting, format_, "record", 0), accounting) is None  # empty: nothing to read


def test_a_document_is_decoded_with_the_cyclic_collector_paused_and_resumed_after():
    import gc
    from dataclasses import replace

    format_ = FORMATS.get("compact_json")
    accounting = accounted("compact_json")
    result = cut(accounting, format_, "raw", 333)  # ends inside a record: only decoding can tell
    assert result.document != accounting.prefix_text(result.records_kept)
    seen = []
    watched = replace(format_, decode=lambda text: seen.append(gc.isenabled()) or format_.decode(text))
    assert gc.isenabled()
    reading = read_cut(result, watched, accounting, GRAPH)
    assert seen == [False] and gc.isenabled()  # paused during the parse only
    assert reading.error == decode_cut(result, format_).error and not reading.parse_ok
