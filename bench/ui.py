"""Benchmark of the dashboard's reaction time: a budget change and a format change on the 2,000-service graph.

    .venv/bin/python bench/ui.py [--services 2000] [--noise-edges 4000] [--repeats 7]

AppTest drives the real app (sidebar, Contexts page with two panels) on the generated service graph.
After a warm-up that fills the caches (renderings, exact prefix counts, token offsets), it times:

- rerun: a rerun with nothing changed (the baseline: drawing the page from warm caches);
- budget: moving the budget slider (target <= 300 ms: nothing is re-rendered or re-tokenized);
- format (warm): switching the panels between two format pairs already seen;
- format (cold): showing a format for the first time (render + one encode + prefix counts).

It prints medians of several runs and the ratios to the rerun baseline (shared, noisy machine).
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from streamlit.testing.v1 import AppTest  # noqa: E402

from core.registry import FORMATS  # noqa: E402

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def checked(app: AppTest) -> AppTest:
    if app.exception:
        raise SystemExit(f"the app raised: {app.exception[0].value}")
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--services", type=int, default=2000)
    parser.add_argument("--noise-edges", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=7)
    arguments = parser.parse_args()
    app = AppTest.from_file(APP, default_timeout=900)
    app.query_params.update(source="generator", generator="services", services_services=str(arguments.services),
                            services_noise_edges=str(arguments.noise_edges), services_seed="7")
    warm_up = timed(lambda: checked(app.run()))
    page = timed(lambda: checked(app.switch_page("screens/contexts.py").run()))
    names = FORMATS.names()
    pairs = ([names[0], names[1]], [names[2], names[3]])
    limit = app.sidebar.slider(key="budget").max
    budgets = [limit // 10 + step * 97 for step in range(arguments.repeats + 1)]
    for pair in pairs:  # warm both pairs and the first budgets
        checked(app.sidebar.multiselect(key="formats").set_value(pair).run())
    checked(app.sidebar.slider(key="budget").set_value(budgets[0]).run())
    rerun = [timed(lambda: checked(app.run())) for _ in range(arguments.repeats)]
    budget = [timed(lambda value=value: checked(app.sidebar.slider(key="budget").set_value(value).run()))
              for value in budgets[1:]]
    format_warm = [timed(lambda pair=pair: checked(app.sidebar.multiselect(key="formats").set_value(pair).run()))
                   for pair in pairs * ((arguments.repeats + 1) // 2)]
    cold = [timed(lambda name=name: checked(app.sidebar.multiselect(key="formats").set_value([name]).run()))
            for name in names[4:4 + 3]]
    baseline = statistics.median(rerun)
    print(f"graph: {arguments.services:,} services, {arguments.noise_edges:,} noise edges; "
          f"first run {warm_up:.1f} s (Overview, every format measured), Contexts page {page:.1f} s")
    for label, times in (("rerun (baseline)", rerun), ("budget change", budget), ("format change, warm", format_warm),
                         ("format change, cold", cold)):
        median = statistics.median(times)
        print(f"{label:<22} median {median * 1000:7.0f} ms  ({len(times)} runs)  ratio to rerun {median / baseline:5.2f}")
    verdict = "meets" if statistics.median(budget) <= 0.3 else "misses"
    print(f"budget change {verdict} the 300 ms target")


if __name__ == "__main__":
    main()
