"""Generate the 200,000-edge typed scale-free graph and render it in every line format, printing times.

Not a test: times vary with the machine and its load, so it prints the median of several runs and
each format's time as a ratio to a baseline measured in the same run (one json.dumps of the graph's
canonical form, the least any writer must do). Run: .venv/bin/python bench/generate.py [--edges N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import scale_free_graph, service_graph


def median_seconds(action, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def line_formats() -> list[str]:
    """Formats that write one record per line (checked on a small graph, so formats added later count)."""
    sample = service_graph(8, 6, 3)
    names = []
    for name in FORMATS:
        rendering = FORMATS.get(name).render(sample, graph_units(sample))
        one_line_each = all("\n" not in record.text.strip("\n") for record in rendering.records)
        if one_line_each and rendering.text.count("\n") >= len(rendering.records) - 1:
            names.append(name)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--all-formats", action="store_true", help="also the formats that are not line formats")
    arguments = parser.parse_args()

    generation, graph = median_seconds(lambda: scale_free_graph(arguments.edges, seed=7), arguments.repeats)
    print(f"scale_free_graph({arguments.edges:,}): {len(graph.nodes):,} nodes, {len(graph.edges):,} edges, "
          f"generated in {generation:.2f} s (median of {arguments.repeats})")
    units_time, units = median_seconds(lambda: graph_units(graph), arguments.repeats)
    baseline, _ = median_seconds(lambda: json.dumps([[node.id, node.type] for node in graph.nodes]
                                                    + [[edge.source, edge.relation, edge.target]
                                                       for edge in graph.edges]), arguments.repeats)
    print(f"graph_units: {units_time:.2f} s; baseline (json.dumps of the triples): {baseline:.3f} s\n")
    print(f"{'format':<18} {'seconds':>8} {'x baseline':>10} {'characters':>12} {'records':>9}")
    names = list(FORMATS) if arguments.all_formats else line_formats()
    for name in names:
        seconds, rendering = median_seconds(lambda name=name: FORMATS.get(name).render(graph, units), arguments.repeats)
        print(f"{name:<18} {seconds:>8.2f} {seconds / baseline:>10.1f} {len(rendering.text):>12,} "
              f"{len(rendering.records):>9,}")


if __name__ == "__main__":
    main()
