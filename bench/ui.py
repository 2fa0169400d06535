"""Benchmark of the dashboard's reaction time on the 2,000-service graph: analysis pages and the Contexts page.

    .venv/bin/python bench/ui.py [--services 2000] [--noise-edges 4000] [--repeats 5]

AppTest drives the real app on the generated service graph (one worker: the pages sweep in the
app's own process, where the token cache stays warm). It times:

- Budget survival, first draw: the page's sweep (the chosen formats x the chosen ordering x both
  policies x the budget list) computed from nothing but the loaded graph (target <= 3 s);
- Pareto, first draw: every format x the chosen ordering (target <= 3 s);
- warm redraw of each after a budget change (target <= 300 ms): the sidebar's inspected budget on
  both (their sweeps are cached), and on Pareto also the page's own Budget choice (which budget of
  the list the chart shows);
- the Contexts page: a rerun with nothing changed, a budget change through the page's own budget
  slider (drawn in a fragment beside the panels it changes; AppTest reruns the whole script, so this
  is an upper bound of the fragment's rerun), a format change (warm, cold).

It prints medians of several runs (the first draws are single runs: a second draw is warm) and CPU
seconds beside wall seconds, since the machine is shared and wall time is noisy. Not part of the
test suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from streamlit.testing.v1 import AppTest

from core.formats import FORMATS

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


def timed(action) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one action."""
    wall, cpu = time.perf_counter(), time.process_time()
    action()
    return time.perf_counter() - wall, time.process_time() - cpu


def checked(app: AppTest) -> AppTest:
    if app.exception:
        raise SystemExit(f"the app raised: {app.exception[0].value}")
    return app


def show(label: str, runs: list[tuple[float, float]], target: float | None = None) -> None:
    wall = statistics.median(run[0] for run in runs)
    cpu = statistics.median(run[1] for run in runs)
    verdict = "" if target is None else f"  {'meets' if wall <= target else 'misses'} the {target * 1000:.0f} ms target"
    print(f"{label:<36} median {wall * 1000:8.0f} ms wall {cpu * 1000:8.0f} ms CPU  ({len(runs)} run(s)){verdict}")


BUDGET = "budget_slider"  # the budget slider (it writes the bound "budget" number input): in the sidebar on the
# analysis pages, on the page itself (in a fragment) on Contexts, Graph and Token anatomy
PARETO_ACCURACY = "pareto_accuracy"  # the Pareto page's choice of accuracy (its front is over every budget)


def budgets_to_try(app: AppTest, count: int) -> list[int]:
    limit = app.sidebar.slider(key=BUDGET).max
    return [limit // 10 + step * 97 for step in range(count)]


def print_load() -> None:
    print(f"load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--services", type=int, default=2000)
    parser.add_argument("--noise-edges", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    app = AppTest.from_file(APP, default_timeout=1800)
    app.query_params.update(source="generator", generator="services", services_services=str(arguments.services),
                            services_noise_edges=str(arguments.noise_edges), services_seed="7")
    loaded = timed(lambda: checked(app.run()))
    print(f"graph: {arguments.services:,} services, {arguments.noise_edges:,} noise edges; app loaded (Overview, "
          f"every format measured) in {loaded[0]:.1f} s wall, {loaded[1]:.1f} s CPU")
    budgets = iter(budgets_to_try(app, 4 * arguments.repeats + 4))
    for page, name in (("screens/budget_survival.py", "Budget survival"), ("screens/pareto.py", "Pareto")):
        first = timed(lambda page=page: checked(app.switch_page(page).run()))
        show(f"{name}, first draw", [first], 3.0)
        warm = [timed(lambda: checked(app.sidebar.slider(key=BUDGET).set_value(next(budgets)).run()))
                for _ in range(arguments.repeats)]
        show(f"{name}, redraw after a budget change", warm, 0.3)
        if name == "Pareto":
            listed = len(app.selectbox(key=PARETO_ACCURACY).options)
            shown = [timed(lambda step=step, listed=listed: checked(
                app.selectbox(key=PARETO_ACCURACY).select_index(step % listed).run()))
                     for step in range(arguments.repeats)]
            show("Pareto, its own Accuracy changed", shown, 0.3)
        print_load()
    checked(app.switch_page("screens/contexts.py").run())
    names = FORMATS.names()
    pairs = ([names[0], names[1]], [names[2], names[3]])
    for pair in pairs:  # warm both pairs
        checked(app.main.multiselect(key="formats").set_value(pair).run())
    rerun = [timed(lambda: checked(app.run())) for _ in range(arguments.repeats)]
    budget = [timed(lambda: checked(app.slider(key=BUDGET).set_value(next(budgets)).run()))  # the page's own slider
              for _ in range(arguments.repeats)]
    warm = [timed(lambda pair=pair: checked(app.main.multiselect(key="formats").set_value(pair).run()))
            for pair in pairs * ((arguments.repeats + 1) // 2)]
    cold = [timed(lambda name=name: checked(app.main.multiselect(key="formats").set_value([name]).run()))
            for name in names[4:7]]
    show("Contexts, rerun (baseline)", rerun)
    show("Contexts, budget change (the page's slider)", budget, 0.3)
    show("Contexts, format change (warm)", warm)
    show("Contexts, format change (cold)", cold)
    print_load()


if __name__ == "__main__":
    main()
