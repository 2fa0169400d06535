"""Engines: where a suite's independent tasks run: the local worker pool (core.execution.workers) or Ray.

`run_tasks(function, shared, tasks, ...)` calls `function(shared, task)` for every task and returns
the results in task order, whatever order they finished in, so every engine gives the same rows.
`shared` (the graph and settings) reaches each worker once: core.execution.workers' initializer, `ray.put`.
`workers=1` runs in this process.
Ray: with `ray_address` it joins that cluster (`ray.init(address=...)`, shipping the `core`
package to its workers); without, it starts a local instance for the run and shuts it down after;
an instance already running in this process (a test session's) is used and left running.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from core.errors import EngineError, ParameterError
from core.execution.ray_address import check_ray_address
from core.execution.workers import check_workers
from core.execution.workers import run_tasks as pool_tasks

ENGINES = ("local", "ray")
S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")
TaskProgress = Callable[[int, int], None]  # (tasks done, tasks in total)
CORE_PACKAGE = Path(__file__).resolve().parents[1]


def run_tasks(function: Callable[[S, T], R], shared: S, tasks: Sequence[T], *, engine: str = "local",
              workers: int | None = None, ray_address: str | None = None,
              progress: TaskProgress | None = None) -> list[R]:
    """`[function(shared, task) for task in tasks]`, run by the engine; results in task order."""
    if engine not in ENGINES:
        raise ParameterError(f"unknown engine {engine!r}", "engine", f"use one of: {', '.join(ENGINES)}")
    workers = check_workers(workers)
    if ray_address and engine != "ray":
        raise ParameterError("a Ray address was given for the local engine", "ray_address",
                             "add engine='ray' (--engine ray), or leave the address out")
    if engine == "ray":
        return _on_ray(function, shared, tasks, workers, ray_address, progress)
    report = None if progress is None else (lambda done, total, _index: progress(done, total))
    # core.execution.workers' pool (the sweep's): `shared` reaches each worker once, through the initializer.
    return pool_tasks(_call, tasks, workers=workers, progress=report, initializer=_set_shared,
                      initargs=(function, shared))


_WORKER_SHARED: dict[str, object] = {}


def _set_shared(function, shared) -> None:
    _WORKER_SHARED["function"], _WORKER_SHARED["shared"] = function, shared


def _call(task):
    return _WORKER_SHARED["function"](_WORKER_SHARED["shared"], task)


WORKER_START_SECONDS = 60  # a worker starts in seconds even on a loaded machine; dying ones never answer


def _ready() -> bool:
    return True


def _check_workers_start(ray) -> None:
    """One trivial task first, bounded in time: when every worker dies at start (an mmap refused under a memory
    limit), Ray retries them for ever and the suite's own wait would never end."""
    ray.get(ray.remote(_ready).remote(), timeout=WORKER_START_SECONDS)


def _on_ray(function, shared, tasks, workers, ray_address, progress) -> list:
    import ray  # only the Ray engine needs it, and it is slow to import

    started_here = not ray.is_initialized()
    if started_here:
        if ray_address:
            check_ray_address(ray_address)  # ray.init retries for ever when no cluster answers
            try:
                ray.init(address=ray_address, runtime_env={"py_modules": [str(CORE_PACKAGE)]},
                         log_to_driver=False)
            except ConnectionError as error:  # something answers there, but not a Ray cluster's GCS
                raise ParameterError(f"no Ray cluster answers at {ray_address} ({error})", "ray_address",
                                     "start the cluster (`ray start --head` on the head node) and give its "
                                     "address as HOST:6379, or leave the address out to start a local Ray "
                                     "instance") from None
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        _check_workers_start(ray)
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
    except ray.exceptions.RayTaskError:
        raise  # a task's own exception: ray.get re-raises it as its own type too
    except ray.exceptions.GetTimeoutError:
        raise EngineError(f"no Ray worker started within {WORKER_START_SECONDS} s", "--engine ray",
                          "check Ray's worker logs (a worker that cannot map its shared memory dies at start: "
                          "raise the memory limit), or run with --engine local") from None
    except ray.exceptions.RayError as error:  # the raylet, a node or the object store died: not the task's fault
        first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise EngineError(f"Ray failed while running the suite: {type(error).__name__}: {first_line[:200]}",
                          "--engine ray", "run again (the local engine, --engine local, needs no cluster), and "
                          "check Ray's logs (raylet.out) for why its processes died") from None
    finally:
        if started_here:
            ray.shutdown()
