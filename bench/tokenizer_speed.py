"""Benchmark of every registered tokenizer: exact prefix accounting against one full encode, and throughput.

    .venv/bin/python bench/tokenizer_speed.py               # 2,000 services, 3 runs
    .venv/bin/python bench/tokenizer_speed.py --repeats 5 --services 500

Every registered format renders the service graph (2,000 services, 4,000 noise edges) in
canonical order, once (untimed). Then, per tokenizer, in one run and alternating so that load from
elsewhere falls on both alike:

- floor: one full encode of each complete rendering with that tokenizer;
- accounting: `core.tokens.prefix_tokens.prefix_tokens` of each rendering (the exact count of every
  record prefix), which includes its own full encode.

It prints, per tokenizer, the medians of wall and CPU seconds, accounting/floor in wall and in CPU
time (target <= 1.5; OVER marks a miss), and the full encode's throughput in tokens per wall and
per CPU second beside o200k_base's. A shared, noisy machine:
read the ratios, not the absolute times. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

TARGET = 1.5


def timed(work) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(tokenizer, renderings, repeats: int) -> dict:
    texts = [rendering.text for rendering in renderings]
    tokenizer.count("warm up")  # the vocabulary loads before timing
    tokens = sum(len(tokenizer.encode_array(text)) for text in texts)
    floors, accountings = [], []
    for _ in range(repeats):
        floors.append(timed(lambda: [tokenizer.encode_array(text) for text in texts]))
        accountings.append(timed(lambda: [prefix_tokens(rendering, tokenizer) for rendering in renderings]))
    floor_wall = statistics.median(wall for wall, _ in floors)
    return {"tokens": tokens, "floor_wall": floor_wall, "floor_cpu": statistics.median(cpu for _, cpu in floors),
            "accounting_wall": statistics.median(wall for wall, _ in accountings),
            "accounting_cpu": statistics.median(cpu for _, cpu in accountings),
            "ratio": statistics.median(run[0] / base[0] for run, base in zip(accountings, floors)),
            "cpu_ratio": statistics.median(run[1] / base[1] for run, base in zip(accountings, floors) if base[1]),
            "tokens_per_second": tokens / floor_wall,
            "tokens_per_cpu_second": tokens / max(statistics.median(cpu for _, cpu in floors), 1e-9)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--services", type=int, default=2000)
    parser.add_argument("--noise-edges", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tokenizers", default=",".join(TOKENIZERS.names()))
    arguments = parser.parse_args()
    graph = service_graph(arguments.services, arguments.noise_edges, 7)
    units = graph_units(graph)
    renderings = [FORMATS.get(name).render(graph, units) for name in FORMATS.names()]
    size = sum(len(rendering.text.encode("utf-8")) for rendering in renderings)
    print(f"{arguments.services:,} services, {arguments.noise_edges:,} noise edges: {len(renderings)} renderings, "
          f"{sum(len(rendering.records) for rendering in renderings):,} records, {size / 1e6:.1f} MB; "
          f"medians of {arguments.repeats} runs")
    names = [name.strip() for name in arguments.tokenizers.split(",")]
    results = {name: measure(TOKENIZERS.get(name), renderings, arguments.repeats) for name in names}
    reference = results.get("o200k_base")
    header = (f"{'tokenizer':<14} {'tokens':>11} {'encode s':>9} {'cpu s':>7} {'prefix s':>9} {'cpu s':>7} "
              f"{'prefix/encode':>13} {'cpu ratio':>12} {'tokens/s':>11} {'vs o200k':>8} {'tokens/cpu s':>12} "
              f"{'vs o200k':>8}")
    print(header)
    print("-" * len(header))
    for name, figures in results.items():
        speed = figures["tokens_per_second"] / reference["tokens_per_second"] if reference else float("nan")
        cpu_speed = figures["tokens_per_cpu_second"] / reference["tokens_per_cpu_second"] if reference else float("nan")
        print(f"{name:<14} {figures['tokens']:>11,} {figures['floor_wall']:>9.2f} {figures['floor_cpu']:>7.2f} "
              f"{figures['accounting_wall']:>9.2f} {figures['accounting_cpu']:>7.2f} "
              f"{figures['ratio']:>8.2f} {verdict(figures['ratio'])} {figures['cpu_ratio']:>7.2f} "
              f"{verdict(figures['cpu_ratio'])} {figures['tokens_per_second']:>11,.0f} {speed:>7.2f}× "
              f"{figures['tokens_per_cpu_second']:>12,.0f} {cpu_speed:>7.2f}×")


def verdict(ratio: float) -> str:
    return "ok  " if ratio <= TARGET else "OVER"

if __name__ == "__main__":
    main()
