"""The process pool: results in input order, one aggregated progress, in process for one worker."""

from __future__ import annotations

import os

import pytest

from core.errors import ParameterError
from core.execution.workers import check_workers, default_workers, in_worker_process, run_tasks

_SHARED: list[int] = []


def _remember(offset: int) -> None:
    _SHARED[:] = [offset]


def _shifted_with_process(value: int) -> tuple[int, int]:
    if value == 13:
        raise ValueError("thirteen")
    return value + _SHARED[0], os.getpid() if in_worker_process() else -os.getpid()


def test_one_worker_runs_in_this_process_in_order_with_weighted_progress():
    calls = []
    results = run_tasks(_shifted_with_process, [3, 1, 2], workers=1, weights=[2, 1, 5], initializer=_remember,
                        initargs=(100,), progress=lambda done, total, index: calls.append((done, total, index)))
    assert [value for value, _ in results] == [103, 101, 102]
    assert {process for _, process in results} == {-os.getpid()}  # this process, not a pool's worker
    assert calls == [(2, 8, 0), (3, 8, 1), (8, 8, 2)]


def test_a_pool_returns_results_in_input_order_and_raises_a_task_s_error():
    calls = []
    results = run_tasks(_shifted_with_process, list(range(8)), workers=2, initializer=_remember, initargs=(10,),
                        progress=lambda done, total, index: calls.append(done))
    assert [value for value, _ in results] == list(range(10, 18))
    assert all(process > 0 and process != os.getpid() for _, process in results)  # run by the pool's workers
    assert calls == list(range(1, 9))
    with pytest.raises(ValueError, match="thirteen"):
        run_tasks(_shifted_with_process, [12, 13], workers=2, initializer=_remember, initargs=(0,))


def test_worker_counts_are_checked():
    assert check_workers(None) == default_workers() >= 1 and check_workers(3) == 3
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ParameterError):
            check_workers(bad)
    with pytest.raises(ParameterError):
        run_tasks(_shifted_with_process, [1], weights=[1, 2])


def test_fewer_collections_sets_the_sweep_thresholds_and_restores_the_previous_ones_after_the_last_block():
    import gc

    from core.execution.workers import SWEEP_THRESHOLDS, fewer_collections

    before = gc.get_threshold()
    gc.set_threshold(900, 11, 12)
    try:
        with fewer_collections():
            assert gc.get_threshold() == SWEEP_THRESHOLDS
            with fewer_collections():  # nested (or a second thread's sweep): the same setting
                assert gc.get_threshold() == SWEEP_THRESHOLDS
            assert gc.get_threshold() == SWEEP_THRESHOLDS  # the outer block still runs
        assert gc.get_threshold() == (900, 11, 12)
        with pytest.raises(ValueError), fewer_collections():
            raise ValueError("a failing sweep")
        assert gc.get_threshold() == (900, 11, 12)
    finally:
        gc.set_threshold(*before)


def _process_of(value: int) -> int:
    if value < 0:
        os._exit(3)  # a worker that dies without a word (killed, out of memory)
    return os.getpid()


def test_a_free_worker_takes_its_group_s_next_task_else_a_group_nobody_runs_else_any():
    from core.execution.workers import _next_task

    groups = ["A", "A", "B", "B", "C"]
    pending = [1, 2, 3, 4]  # costliest first
    assert _next_task(pending, groups, "B", {"A"}) == 2 and pending == [1, 3, 4]  # its own group's next
    assert _next_task(pending, groups, None, {"A"}) == 3  # the costliest of a group nobody runs
    assert _next_task(pending, groups, "B", {"A", "C"}) == 1  # every group is running: rather than wait
    assert pending == [4]


def test_grouped_tasks_give_their_results_in_task_order():
    processes = run_tasks(_process_of, [0, 1, 2, 3], workers=2, groups=["A", "A", "B", "B"], costs=[4, 3, 2, 1])
    assert len(processes) == 4 and len(set(processes)) <= 2 and os.getpid() not in processes
    with pytest.raises(ParameterError):
        run_tasks(_process_of, [0, 1], workers=2, groups=["A"])


def _failing_initializer() -> None:
    raise LookupError("no shared state")


def test_a_dead_worker_and_a_failing_initializer_are_errors_here():
    from core.errors import GraphContextError

    with pytest.raises(GraphContextError, match="ended before returning"):
        run_tasks(_process_of, [1, -1, 2], workers=2)
    with pytest.raises(LookupError, match="no shared state"):
        run_tasks(_process_of, [1, 2], workers=2, initializer=_failing_initializer)
