"""Run independent tasks in a pool of processes, results in input order, with one aggregated progress callback.

    results = run_tasks(measure, tasks, workers=4, progress=lambda done, total, index: ...,
                        initializer=load_shared, initargs=(big_shared_state,))

- `function(task)` must be a module-level function (it is sent to the workers by name); each task
  and each result is pickled. State every task needs (a graph, its queries) goes in
  `initializer(*initargs)`, run once per worker process, rather than into every task.
- `workers=1` (or a single task) runs everything in this process, in order, with no pool; the
  initializer still runs first, so both paths see the same state. `workers=None` means
  `default_workers()`, the cores this process may use.
- `progress(done, total, index)` is called in this process after each task finishes: `done` and
  `total` are sums of `weights` (one per task, default 1) and `index` is the finished task's
  position, so a caller can say what just finished. Calls come in completion order, `done` grows.
- Results come back in the order of `tasks`, whatever the order the workers finish in, so the
  output of any worker count is the same. An exception in a task is raised here, as it was raised.

Processes are forked where the platform allows it (Linux: nothing is pickled to start a worker,
the initializer's arguments included); elsewhere they are spawned.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import TypeVar

from core.errors import ParameterError

Task = TypeVar("Task")
Result = TypeVar("Result")
TaskProgress = Callable[[int, int, int], None]  # (weight done, weight in total, index of the finished task)


# A sweep allocates millions of small objects it keeps (records, atoms, tuples) and frees few cycles;
# at the default threshold (700) the young-generation collector runs tens of thousands of times over
# them: a third of a 2,000-service sweep's CPU. Collections every 50,000 allocations cost 6% of that.
SWEEP_THRESHOLDS = (50_000, 20, 100)
_COLLECTOR_LOCK = threading.Lock()
_COLLECTOR_USERS = [0]  # blocks running now
_COLLECTOR_SAVED = [gc.get_threshold()]  # the thresholds before the first of them


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with SWEEP_THRESHOLDS for the cyclic garbage collector (process-wide), then restore them.

    Nested and concurrent blocks (threads of one server) share one setting: the first sets it, the
    last restores what was there before. Forked workers inherit it.
    """
    with _COLLECTOR_LOCK:
        if _COLLECTOR_USERS[0] == 0:
            _COLLECTOR_SAVED[0] = gc.get_threshold()
            gc.set_threshold(*SWEEP_THRESHOLDS)
        _COLLECTOR_USERS[0] += 1
    try:
        yield
    finally:
        with _COLLECTOR_LOCK:
            _COLLECTOR_USERS[0] -= 1
            if _COLLECTOR_USERS[0] == 0:
                gc.set_threshold(*_COLLECTOR_SAVED[0])


def default_workers() -> int:
    """The number of cores this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not every platform has affinity masks
        return max(os.cpu_count() or 1, 1)


def in_worker_process() -> bool:
    """Whether this process was started by multiprocessing (a pool's worker): its callers already use the cores."""
    return multiprocessing.parent_process() is not None


def check_workers(workers: int | None) -> int:
    """A worker count: None is the default (every core), otherwise a whole number of at least 1."""
    if workers is None:
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ParameterError(f"{workers!r} workers", "workers", "use 1 (in this process) or more worker processes")
    return workers


def run_tasks(function: Callable[[Task], Result], tasks: Sequence[Task], *, workers: int | None = None,
              progress: TaskProgress | None = None, weights: Sequence[int] | None = None,
              initializer: Callable[..., None] | None = None, initargs: tuple = (),
              costs: Sequence[float] | None = None) -> list[Result]:
    """function(task) for every task, in a pool of `workers` processes; results in the order of `tasks`.

    `costs` (default: the weights) estimate each task's time; the pool starts the costliest first.
    """
    count = min(check_workers(workers), len(tasks))
    weights = list(weights) if weights is not None else [1] * len(tasks)
    if len(weights) != len(tasks):
        raise ParameterError(f"{len(weights)} weights for {len(tasks)} tasks", "weights", "give one weight per task")
    total = sum(weights)
    if count <= 1:
        done = 0
        if initializer is not None:
            initializer(*initargs)
        results = []
        for index, task in enumerate(tasks):
            results.append(function(task))
            done += weights[index]
            if progress is not None:
                progress(done, total, index)
        return results
    found: list = [None] * len(tasks)
    # Heaviest first (longest processing time first): a heavy task started last would leave the
    # other workers idle at the end. Results still come back in the order of `tasks`.
    estimates = list(costs) if costs is not None else weights
    order = sorted(range(len(tasks)), key=lambda index: -estimates[index])
    # Objects that exist now are frozen out of the garbage collector: a forked worker inherits them
    # copy-on-write, and a collection walking them would write to (and so copy) every page they sit on.
    gc.collect()
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=count, mp_context=_context(), initializer=initializer,
                                 initargs=initargs) as pool:
            pending = {pool.submit(function, tasks[index]): index for index in order}
            _collect(pool, pending, found, weights, total, progress)
    finally:
        gc.unfreeze()
    return found


def _collect(pool: ProcessPoolExecutor, pending: dict, found: list, weights: list[int], total: int,
             progress: TaskProgress | None) -> None:
    """Store each result at its task's index as it finishes, reporting progress in completion order."""
    done = 0
    try:
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=pending.__getitem__):
                index = pending.pop(future)
                found[index] = future.result()
                done += weights[index]
                if progress is not None:
                    progress(done, total, index)
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)  # the first failure ends the run; no task is left running
        raise


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")
