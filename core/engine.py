"""Engines: where a suite's independent tasks run, in process, in a local process pool, or on Ray.

`run_tasks(function, shared, tasks, ...)` calls `function(shared, task)` for every task and returns
the results in task order, whatever order they finished in, so every engine gives the same rows.
`shared` (the graph and settings) is sent to each worker once: a pool initialiser, `ray.put`.
Ray: with `ray_address` it joins that cluster (`ray.init(address=...)`, shipping the `core`
package to its workers); without, it starts a local instance for the run and shuts it down after;
an instance already running in this process (a test session's) is used and left running.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from core.errors import ParameterError

ENGINES = ("local", "ray")
S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")
TaskProgress = Callable[[int, int], None]  # (tasks done, tasks in total)
CORE_PACKAGE = Path(__file__).resolve().parent


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def run_tasks(function: Callable[[S, T], R], shared: S, tasks: Sequence[T], *, engine: str = "local",
              workers: int | None = None, ray_address: str | None = None,
              progress: TaskProgress | None = None) -> list[R]:
    """`[function(shared, task) for task in tasks]`, run by the engine; results in task order."""
    if engine not in ENGINES:
        raise ParameterError(f"unknown engine {engine!r}", "engine", f"use one of: {', '.join(ENGINES)}")
    if workers is not None and workers < 1:
        raise ParameterError(f"{workers} workers", "workers", "give 1 or more workers")
    if ray_address and engine != "ray":
        raise ParameterError("a Ray address was given for the local engine", "ray_address",
                             "add engine='ray' (--engine ray), or leave the address out")
    if engine == "ray":
        return _on_ray(function, shared, tasks, workers, ray_address, progress)
    workers = min(workers or default_workers(), max(len(tasks), 1))
    if workers == 1:
        return _in_process(function, shared, tasks, progress)
    return _in_pool(function, shared, tasks, workers, progress)


def _in_process(function, shared, tasks, progress) -> list:
    results = []
    for task in tasks:
        results.append(function(shared, task))
        if progress is not None:
            progress(len(results), len(tasks))
    return results


_WORKER_SHARED: dict[str, object] = {}


def _set_shared(function, shared) -> None:
    _WORKER_SHARED["function"], _WORKER_SHARED["shared"] = function, shared


def _call(task):
    return _WORKER_SHARED["function"](_WORKER_SHARED["shared"], task)  # type: ignore[operator]


def _in_pool(function, shared, tasks, workers: int, progress) -> list:
    # forkserver: a clean worker process (no copied threads from a web server or a Ray driver).
    context = multiprocessing.get_context("forkserver")
    results: list = [None] * len(tasks)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_set_shared,
                             initargs=(function, shared)) as pool:
        pending = {pool.submit(_call, task): index for index, task in enumerate(tasks)}
        done_count = 0
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                results[pending.pop(future)] = future.result()
                done_count += 1
                if progress is not None:
                    progress(done_count, len(tasks))
    return results


def _on_ray(function, shared, tasks, workers, ray_address, progress) -> list:
    import ray  # noqa: PLC0415 (only the Ray engine needs it, and it is slow to import)

    started_here = not ray.is_initialized()
    if started_here:
        if ray_address:
            ray.init(address=ray_address, runtime_env={"py_modules": [str(CORE_PACKAGE)]},
                     log_to_driver=False)
        else:
            ray.init(num_cpus=workers or default_workers(), include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(function)
        shared_reference = ray.put(shared)
        references = [remote.remote(shared_reference, task) for task in tasks]
        index_of = {reference: index for index, reference in enumerate(references)}
        results: list = [None] * len(tasks)
        waiting = list(references)
        while waiting:
            finished, waiting = ray.wait(waiting, num_returns=1)
            for reference in finished:
                results[index_of[reference]] = ray.get(reference)
            if progress is not None:
                progress(len(tasks) - len(waiting), len(tasks))
        return results
    finally:
        if started_here:
            ray.shutdown()
