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
- `groups` (one hashable per task) names tasks that share what a worker builds as it runs them (a
  sweep's tasks of one format share its record memo and decoded cuts): a worker that finishes a
  task takes the next one of the same group when one is left, and otherwise the costliest task of
  a group no other worker has started, so a group is split over workers only at the end of a run.

Processes are forked where the platform allows it (Linux: nothing is pickled to start a worker,
the initializer's arguments included); elsewhere they are spawned.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection, wait
from typing import TypeVar, cast

from core.errors import GraphContextError, ParameterError

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
              costs: Sequence[float] | None = None, groups: Sequence[Hashable] | None = None) -> list[Result]:
    """function(task) for every task, in a pool of `workers` processes; results in the order of `tasks`.

    `costs` (default: the weights) estimate each task's time; the pool starts the costliest first.
    """
    count = min(check_workers(workers), len(tasks))
    weights = list(weights) if weights is not None else [1] * len(tasks)
    if len(weights) != len(tasks):
        raise ParameterError(f"{len(weights)} weights for {len(tasks)} tasks", "weights", "give one weight per task")
    groups = list(groups) if groups is not None else list(range(len(tasks)))
    if len(groups) != len(tasks):
        raise ParameterError(f"{len(groups)} groups for {len(tasks)} tasks", "groups", "give one group per task")
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
    # Heaviest first (longest processing time first): a heavy task started last would leave the
    # other workers idle at the end. Results still come back in the order of `tasks`.
    estimates = list(costs) if costs is not None else weights
    order = sorted(range(len(tasks)), key=lambda index: -estimates[index])
    found: list = [None] * len(tasks)
    done = 0

    def store(index: int, result: object) -> None:
        nonlocal done
        found[index] = result
        done += weights[index]
        if progress is not None:
            progress(done, total, index)

    # Objects that exist now are frozen out of the garbage collector: a forked worker inherits them
    # copy-on-write, and a collection walking them would write to (and so copy) every page they sit on.
    gc.collect()
    gc.freeze()
    try:
        _run_pool(function, tasks, order, groups, count, initializer, initargs, store)
    finally:
        gc.unfreeze()
    return found


def _next_task(pending: list[int], groups: list[Hashable], last: Hashable | None, running: set) -> int:
    """The pending task a free worker takes: its last group's next, else the costliest of a group nobody runs."""
    for position, index in enumerate(pending):
        if groups[index] == last:
            return pending.pop(position)
    for position, index in enumerate(pending):
        if groups[index] not in running:
            return pending.pop(position)
    return pending.pop(0)


def _run_pool(function: Callable, tasks: Sequence, order: list[int], groups: list[Hashable], count: int,
              initializer: Callable[..., None] | None, initargs: tuple, store: Callable[[int, object], None]) -> None:
    """Run the tasks on `count` worker processes, each fed one task at a time through its own pipe.

    Not a ProcessPoolExecutor: its workers take tasks from one shared queue, so which worker runs
    which task cannot follow the groups.
    """
    context = _context()
    workers: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    failed = True
    try:
        for _ in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, function, initializer, initargs))
            process.start()
            theirs.close()
            workers.append((process, ours))
        pending = list(order)
        running: dict[Connection, int] = {}
        last: dict[Connection, Hashable] = {}

        def assign(connection: Connection) -> None:
            index = _next_task(pending, groups, last.get(connection),
                               {groups[other] for other in running.values()})
            running[connection] = index
            connection.send((index, tasks[index]))

        for _, connection in workers:
            if pending:
                assign(connection)
        while running:
            for ready in wait(list(running)):
                connection = cast(Connection, ready)
                try:
                    succeeded, payload = connection.recv()
                except EOFError:
                    raise GraphContextError("a worker process ended before returning its result",
                                            "the process pool", "run with 1 worker to see the error") from None
                index = running.pop(connection)
                if not succeeded:
                    raise payload
                store(index, payload)
                last[connection] = groups[index]
                if pending:
                    assign(connection)
        failed = False
    finally:
        for process, connection in workers:
            if failed:  # the first failure ends the run; no task is left running
                process.terminate()
            else:
                with suppress(OSError):
                    connection.send(None)  # no more tasks: the worker returns
            connection.close()
        for process, _ in workers:
            process.join()


def _serve(connection: Connection, function: Callable, initializer: Callable[..., None] | None,
           initargs: tuple) -> None:
    """A worker: run the initializer, then each task received, sending back (True, result) or (False, error).

    Ctrl-C is the parent's to handle (the terminal sends it to every process of the group): a worker ignores it
    and is stopped by the parent, so a stop prints no worker's traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    problem: BaseException | None = None
    try:
        if initializer is not None:
            initializer(*initargs)
    except Exception as error:  # reported with the first task, as the task's error
        problem = error
    while True:
        try:
            message = connection.recv()
        except EOFError:  # the parent is gone
            return
        if message is None:
            return
        _, task = message
        try:
            if problem is not None:
                raise problem
            reply: tuple[bool, object] = (True, function(task))
        except Exception as error:
            reply = (False, error)
        try:
            connection.send(reply)
        except Exception as error:  # an unpicklable result or error: say what it was
            connection.send((False, GraphContextError(f"a worker could not send back its result: {error!r}",
                                                      "the process pool", "")))


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")
