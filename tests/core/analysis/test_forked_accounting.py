"""Accountings made in a forked process: the same as those made here, and made here when the process fails."""

from __future__ import annotations

import os
import time

import numpy as np

from core.analysis import forked_accounting
from core.io.samples import load_sample
from core.specs import RenderingSpec
from core.workbench import Workbench

GRAPH = load_sample("reference-services")
SPECS = [RenderingSpec.from_names(GRAPH, name, ordering_name=ordering, tokenizer_name="o200k_base", seeds=seeds)
         for name, ordering, seeds in (("pretty_json", "canonical", ()), ("compact_json", "canonical", ()),
                                       ("csv", "hop_tiers", ("db-identity",)))]


def same(made, expected) -> bool:
    return (made.rendering == expected.rendering and np.array_equal(made.counts, expected.counts)
            and np.array_equal(made.full_tokens, expected.full_tokens) and made.source == expected.source
            and made.tokenizer is expected.tokenizer
            and all(made.count(records, "\n") == expected.count(records, "\n") for records in range(made.records + 1)))


def test_accountings_made_beside_this_process_equal_those_made_here():
    bench = Workbench()
    made = bench.account_many(SPECS)
    assert all(same(made_one, Workbench().account(spec)) for made_one, spec in zip(made, SPECS))
    assert [bench.account(spec) for spec in SPECS] == made  # kept, as account keeps them


def test_the_other_accountings_are_made_by_another_process(monkeypatch):
    makers: list[int] = []
    original = forked_accounting.accounted_rendering

    def noting(spec, **options):
        makers.append(os.getpid())
        return original(spec, **options)

    monkeypatch.setattr(forked_accounting, "accounted_rendering", noting)
    assert forked_accounting.can_fork()
    forked = forked_accounting.ForkedAccounting(SPECS[1:])
    try:
        received = [forked.result(spec) for spec in SPECS[1:]]
    finally:
        forked.close()
    assert makers == []  # the fork noted its own calls, in its own memory
    assert all(same(made, Workbench().account(spec)) for made, spec in zip(received, SPECS[1:]))


def test_what_the_process_fails_to_send_is_made_here(monkeypatch):
    monkeypatch.setattr(forked_accounting, "_account_and_send", lambda specs, connection: connection.close())
    made = Workbench().account_many(SPECS)
    assert all(same(made_one, Workbench().account(spec)) for made_one, spec in zip(made, SPECS))


def test_a_process_that_sends_nothing_in_time_is_ended_and_the_accounting_made_here(monkeypatch):
    monkeypatch.setattr(forked_accounting, "RECEIVE_SECONDS", 0.5)
    monkeypatch.setattr(forked_accounting, "_account_and_send", lambda specs, connection: time.sleep(60))
    began = time.monotonic()
    made = Workbench().account_many(SPECS)
    assert time.monotonic() - began < 30
    assert all(same(made_one, Workbench().account(spec)) for made_one, spec in zip(made, SPECS))


def test_a_forked_process_renders_even_when_another_thread_holds_the_memos_lock():
    from core.formats import base

    with base._MEMO_LOCK:  # another session's thread, in record_memo when the fork happens
        forked = forked_accounting.ForkedAccounting(SPECS[1:2])
        try:
            assert forked._connection.poll(30)  # the process rendered and sent, its lock fresh
        finally:
            forked.close()
