"""Renderings accounted in a forked process as well as here: the same accountings as those made here alone, and
counted here when the process fails or its text differs."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from functools import partial

import numpy as np

from core.analysis import sweep
from core.formats import base
from core.graph.derived import memo_of
from core.graph.kept import positions_for
from core.io.samples import load_sample
from core.specs import RenderingSpec
from core.tokens import forked_counting
from core.tokens.prefix_tokens import counted_fields
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


def counted_here(spec: RenderingSpec):
    return Workbench().account(spec)


def accounted_in_fork(spec: RenderingSpec):
    return forked_counting.accounted_in_fork(partial(sweep.spec_rendering, spec), spec.tokenizer)


def noting_counts_here(monkeypatch) -> list[int]:
    """Calls of prefix_tokens in this process. A forked process inherits the patch but notes in its own memory."""
    counts: list[int] = []
    for module in (forked_counting, sweep):
        original = module.prefix_tokens
        monkeypatch.setattr(module, "prefix_tokens", lambda rendering, *args, original=original, **options:
                            counts.append(os.getpid()) or original(rendering, *args, **options))
    return counts


def test_a_rendering_accounted_in_a_forked_process_equals_one_accounted_here(monkeypatch):
    counts = noting_counts_here(monkeypatch)
    made = [accounted_in_fork(spec) for spec in SPECS]
    assert counts == []  # every count came from the other process
    assert all(same(made_one, counted_here(spec)) for made_one, spec in zip(made, SPECS))


def test_accountings_made_at_once_equal_those_made_one_by_one():
    bench = Workbench()
    made = bench.account_many(SPECS)
    assert all(same(made_one, counted_here(spec)) for made_one, spec in zip(made, SPECS))
    assert [bench.account(spec) for spec in SPECS] == made  # kept, as account keeps them


def test_accountings_started_in_the_background_are_waited_for_not_built_again(monkeypatch):
    bench = Workbench()
    counts = noting_counts_here(monkeypatch)
    bench.account_in_background(SPECS[:2])
    assert all(bench.renderings.building(spec.key) or spec.key in bench.renderings for spec in SPECS[:2])
    made = [bench.account(spec) for spec in SPECS[:2]]
    assert counts == []  # waited for, counted by the forked processes, not here
    assert all(same(made_one, counted_here(spec)) for made_one, spec in zip(made, SPECS[:2]))
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []  # each process ended once its counts were read


def test_renderings_made_while_others_count_come_back_indexed_for_reading():
    made = Workbench().account_many(SPECS[:2])  # pretty_json counted in a fork, compact_json here meanwhile
    for accounting in made:
        memo = memo_of(accounting.rendering)
        assert {"record of key", "kept node and edge counts", "unit positions"} <= memo.keys()
        assert memo["unit positions"] is positions_for(accounting.rendering, GRAPH, accounting.record_of_key)


def test_what_the_process_fails_to_send_is_counted_here(monkeypatch):
    monkeypatch.setattr(forked_counting, "_count_and_send", lambda make, tokenizer, channel: None)
    counts = noting_counts_here(monkeypatch)
    made = Workbench().account_many(SPECS)
    assert len(counts) == len(SPECS)  # the last as planned, the others after the processes sent nothing
    assert all(same(made_one, counted_here(spec)) for made_one, spec in zip(made, SPECS))


def test_counts_of_another_text_are_not_joined_to_this_rendering(monkeypatch):
    def sending_the_wrong_counts(make, tokenizer, channel):  # as a rendering that differed between processes would
        channel.send(counted_fields(Workbench().account(SPECS[0])))

    monkeypatch.setattr(forked_counting, "_count_and_send", sending_the_wrong_counts)
    counts = noting_counts_here(monkeypatch)
    made = accounted_in_fork(SPECS[1])
    assert len(counts) == 1  # counted here
    assert same(made, counted_here(SPECS[1]))


def test_a_process_that_sends_nothing_in_time_is_ended_and_the_rendering_counted_here(monkeypatch):
    monkeypatch.setattr(forked_counting, "RECEIVE_SECONDS", 0.5)
    monkeypatch.setattr(forked_counting, "_count_and_send", lambda make, tokenizer, channel: time.sleep(60))
    began = time.monotonic()
    made = accounted_in_fork(SPECS[0])
    assert time.monotonic() - began < 30 and multiprocessing.active_children() == []
    assert same(made, counted_here(SPECS[0]))


def test_a_forked_process_renders_even_when_another_thread_holds_the_memos_lock():
    context = multiprocessing.get_context("fork")
    with base._MEMO_LOCK:  # another session's thread, in record_memo when a sweep forks its workers
        process = context.Process(target=sweep.spec_rendering, args=(SPECS[2],), daemon=True)
        process.start()
        process.join(30)
    process.terminate()
    assert process.exitcode == 0  # it rendered, with a lock of its own (the held one would have blocked it)


def test_a_large_message_arrives_whole_and_quickly_while_another_thread_runs():
    # Through a pipe alone, 64 MB took about 5 s beside a busy thread: each 64 KB read waited for the GIL.
    message = {"tokens": np.arange(8_000_000), "text": b"{" * 1_000_000}
    busy = threading.Event()

    def spinning():
        while not busy.is_set():
            pass

    threading.Thread(target=spinning, daemon=True).start()
    try:
        channel = forked_counting._Channel(multiprocessing.get_context("fork"))
        process = multiprocessing.get_context("fork").Process(target=channel.send, args=(message,), daemon=True)
        process.start()
        channel.close_sending_end()
        began = time.monotonic()
        received = channel.receive(60)
        waited = time.monotonic() - began
        process.join()
        channel.close()
    finally:
        busy.set()
    assert np.array_equal(received["tokens"], message["tokens"]) and received["text"] == message["text"]
    assert waited < 3


def test_a_message_the_process_could_not_finish_is_not_read(monkeypatch):
    channel = forked_counting._Channel(multiprocessing.get_context("fork"))
    process = multiprocessing.get_context("fork").Process(target=os._exit, args=(1,), daemon=True)
    process.start()  # it dies before it says anything
    channel.close_sending_end()
    assert channel.receive(30) is None
    process.join()
    channel.close()
