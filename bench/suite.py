"""Benchmark of suite sweeps: shared work across questions, 2 workers against 1, Ray beside the local pool.

    .venv/bin/python bench/suite.py                    # nvidia-jetson's 164 questions (takes minutes)
    .venv/bin/python bench/suite.py --questions 40     # an evenly spread subset, for a quick look
    .venv/bin/python bench/suite.py --skip-ray

Settings: the nvidia-jetson sample's CKG questions × every lossless format × every ordering × both
layouts (where a format has them) × both policies × 8 budgets (512 ... 65,536), seeds from the text
and from the annotations. In one run it prints:

- per question, the suite's CPU seconds (one worker, in process) against the same cuts in a
  one-question `core.analysis.sweep.sweep()` (that question alone, its annotation seeds), the mean over
  `--baseline` evenly spread questions: target <= 1.2 (shared renderings must show);
- the suite with 1 and with 2 local workers: wall seconds and speed-up (target >= 1.6), CPU seconds
  of the workers beside them; every run's rows are checked equal to the first;
- the Ray engine on a local instance started for the run (start-up included, and without it).
Ratios are from one run on a shared machine: read them as such. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd

from bench.sweep import machine_ceiling
from core.analysis.suite import run_suite, settings_for
from core.analysis.sweep import sweep
from core.formats import FORMATS
from core.io.samples import get_sample
from core.questions import load_questions
from core.retrieval import ORDERINGS
from core.retrieval.seeds import Seeds
from core.specs import DEFAULT_BUDGETS, SweepSpec


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(function):
    """CPU and wall seconds of `function()`; a sweep without a workbench keeps no rendering between calls."""
    cpu, wall = cpu_seconds(), time.perf_counter()
    value = function()
    return value, cpu_seconds() - cpu, time.perf_counter() - wall


def spread(items: list, count: int) -> list:
    if count >= len(items):
        return items
    step = len(items) / count
    return [items[int(index * step)] for index in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=164, help="questions of the set to run (evenly spread)")
    parser.add_argument("--baseline", type=int, default=6, help="one-question sweeps for the baseline")
    parser.add_argument("--skip-ray", action="store_true")
    arguments = parser.parse_args()
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway local instance

    sample = get_sample("nvidia-jetson")
    graph = sample.load()
    every = load_questions(sample.queries_path, graph)
    questions = every.subset(question.id for question in spread(list(every), arguments.questions))
    formats = [name for name in FORMATS.names() if FORMATS.get(name).lossless]
    settings = settings_for(formats, ORDERINGS.names(), budgets=DEFAULT_BUDGETS)
    print(f"nvidia-jetson: {len(questions)} questions × {len(formats)} lossless formats × {len(ORDERINGS)} orderings "
          f"× layouts × 2 policies × {len(DEFAULT_BUDGETS)} budgets × 2 seedings")

    baseline = []
    for question in spread([q for q in questions if q.annotation_seeds], arguments.baseline):
        _, cpu, _ = timed(lambda question=question: sweep(SweepSpec.from_names(graph, {question.id: question.query},
                                                                               seeds=Seeds(question.annotation_seeds),
                                                                               format_names=formats,
                                                                               budgets=DEFAULT_BUDGETS)))
        baseline.append(cpu)
    one_question = sum(baseline) / len(baseline)

    single, single_cpu, single_wall = timed(lambda: run_suite(graph, questions, settings, workers=1))
    per_question = single_cpu / len(questions)
    print(f"one-question sweep (mean of {len(baseline)}): {one_question:.2f} CPU s")
    print(f"suite, 1 worker: {single_cpu:.1f} CPU s, {single_wall:.1f} wall s, {len(single.rows):,} rows; "
          f"per question {per_question:.2f} CPU s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  suite per question / one-question sweep = {per_question / one_question:.2f} (target <= 1.2)")

    ceiling = machine_ceiling()
    pooled, pooled_cpu, pooled_wall = timed(lambda: run_suite(graph, questions, settings, workers=2))
    pd.testing.assert_frame_equal(pooled.rows, single.rows)
    print(f"suite, 2 workers: {pooled_wall:.1f} wall s, {pooled_cpu:.1f} CPU s with the workers "
          f"({pooled.task_cpu_seconds:.1f} CPU s in the workers' tasks, {single.task_cpu_seconds:.1f} with 1 worker); "
          f"speed-up 1 -> 2 workers = {single_wall / pooled_wall:.2f} (target >= 1.6); rows equal; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  machine control, same run (a pure-Python loop, 1 process, then 2 at once): each of the 2 takes "
          f"{ceiling['slowdown']:.2f}x the CPU of one alone, 2-process throughput {ceiling['speedup']:.2f}x "
          f"(load {ceiling['load']:.1f}): no pool can beat that here")

    if not arguments.skip_ray:
        import ray

        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        start_up = time.perf_counter() - started
        try:
            on_ray, _, ray_wall = timed(lambda: run_suite(graph, questions, settings, engine="ray"))
        finally:
            ray.shutdown()
        pd.testing.assert_frame_equal(on_ray.rows, single.rows)
        print(f"suite on Ray (local, 2 CPUs): {ray_wall:.1f} wall s ({on_ray.task_cpu_seconds:.1f} CPU s in its "
              f"tasks) after {start_up:.1f} s start-up "
              f"({ray_wall + start_up:.1f} s in all) beside {pooled_wall:.1f} s on the local pool; rows equal")


if __name__ == "__main__":
    main()
