"""Benchmark of the budget sweep: exact prefix accounting and cuts against one encode per rendering.

    .venv/bin/python bench/sweep.py                 # 2,000 services, then the 20,000-service run
    .venv/bin/python bench/sweep.py --skip-large    # only the 2,000-service comparison

On the service graph (2,000 services, 4,000 noise edges) every registered format is rendered in
every ordering and layout it allows (untimed). Then, from the same renderings, in one run:

- floor: `encode_ordinary` of each complete rendering, once;
- sweep: exact prefix token accounting of each rendering plus its cuts under both policies at 8
  budgets (512 ... 65,536), as `core.prefix_tokens` and `core.budget` do them;
- naive: per budget, a binary search for the largest record prefix that fits, re-encoding prefixes,
  and a raw cut by encoding the complete text; its cuts are checked against the sweep's.

It prints sweep/floor (target <= 1.5) and naive/sweep (target >= 10), medians of several runs on a
shared, noisy machine; the end-to-end `core.sweep.sweep()` time (rendering, decoding every cut and
the metrics included) for reference; and, in a child process, the 20,000-service graph's time and
peak memory (maximum resident set size). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.budget import POLICIES, cut  # noqa: E402
from core.coverage import seed_region  # noqa: E402
from core.generate import service_graph  # noqa: E402
from core.ordering import OrderingInputs, layouts_for, order_units  # noqa: E402
from core.prefix_tokens import prefix_tokens, token_byte_lengths  # noqa: E402
from core.queries import IMPACT_OWNERS, query  # noqa: E402
from core.registry import FORMATS, ORDERINGS, TOKENIZERS  # noqa: E402
from core.sweep import DEFAULT_BUDGETS, sweep  # noqa: E402

SEEDS = ("db-identity",)
QUESTION = query(IMPACT_OWNERS, failed="db-identity")


def renderings(graph, formats):
    """Every (format, ordering, layout) rendering of the graph, ordered as the sweep orders it."""
    region = seed_region(graph, SEEDS)
    evidence = QUESTION.solve(graph).evidence
    found = []
    for name in formats:
        format_ = FORMATS.get(name)
        for layout in layouts_for(format_):
            for ordering in map(ORDERINGS.get, ORDERINGS.names()):
                inputs = OrderingInputs(SEEDS, evidence if ordering.uses_evidence else frozenset(), 0)
                units = order_units(graph, region.units, ordering, layout, inputs)
                found.append((format_, format_.render(graph, units)))
    return found


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def floor(tokenizer, texts) -> None:
    for text in texts:
        tokenizer.encode(text)


def budget_sweep(tokenizer, prepared) -> list[tuple[int, ...]]:
    kept = []
    for format_, rendering in prepared:
        accounting = prefix_tokens(rendering, tokenizer)
        kept.append(tuple(cut(accounting, format_, policy, budget).records_kept
                          for policy in POLICIES for budget in DEFAULT_BUDGETS))
    return kept


def naive_sweep(tokenizer, prepared) -> list[tuple[int, ...]]:
    """Per budget: binary search over record prefixes by re-encoding them; raw: encode the whole text."""
    kept = []
    for format_, rendering in prepared:
        grammar = tokenizer.count(format_.grammar)
        cuts = []
        for policy in POLICIES:
            for budget in DEFAULT_BUDGETS:
                allowed = budget - grammar
                if policy == "raw":
                    tokens = tokenizer.encode(rendering.text)
                    text = tokenizer.decode(tokens[:allowed])
                    cuts.append(_whole_records_in(rendering, text) if allowed >= tokenizer.count(rendering.preamble)
                                else 0)
                    continue
                low, high = -1, len(rendering.records)  # largest prefix that fits, by bisection
                while low < high:
                    middle = (low + high + 1) // 2
                    if tokenizer.count(rendering.prefix_text(middle)) <= allowed:
                        low = middle
                    else:
                        high = middle - 1
                cuts.append(max(low, 0))
        kept.append(tuple(cuts))
    return kept


def _whole_records_in(rendering, text: str) -> int:
    length = len(rendering.preamble)
    intact = text.rstrip("\ufffd")
    count = 0
    for record in rendering.records:
        length += len(record.text)
        if length > len(intact):
            break
        count += 1
    return count


def compare(services: int, noise_edges: int, repeats: int, formats: list[str], end_to_end: bool) -> dict:
    tokenizer = TOKENIZERS.get("o200k_base")
    token_byte_lengths(tokenizer)  # load the tokenizer and its byte table before timing
    graph = service_graph(services, noise_edges, 7)
    start = time.perf_counter()
    prepared = renderings(graph, formats)
    rendering_seconds = time.perf_counter() - start
    texts = [rendering.text for _, rendering in prepared]
    floors, sweeps = [], []
    for _ in range(repeats):  # alternate, so that load from elsewhere falls on both alike
        floors.append(timed(lambda: floor(tokenizer, texts)))
        sweeps.append(timed(lambda: budget_sweep(tokenizer, prepared)))
    figures = {"services": services, "noise_edges": noise_edges, "renderings": len(prepared),
               "records": sum(len(rendering.records) for _, rendering in prepared),
               "rendering_seconds": rendering_seconds, "floor_seconds": statistics.median(floors),
               "sweep_seconds": statistics.median(sweeps), "floor_runs": floors, "sweep_runs": sweeps,
               "ratio": statistics.median(run / base for run, base in zip(sweeps, floors))}
    if end_to_end:
        figures["end_to_end_seconds"] = timed(lambda: sweep(graph, [QUESTION], seeds=SEEDS, formats=formats,
                                                            cache=None))
    return figures


def print_comparison(figures: dict, naive_seconds: float | None) -> None:
    ratio = figures["ratio"]
    print(f"graph: {figures['services']:,} services, {figures['noise_edges']:,} noise edges; "
          f"{figures['renderings']} renderings ({figures['records']:,} records), rendered in "
          f"{figures['rendering_seconds']:.1f} s (not timed below)")
    print(f"floor  (encode each complete rendering once): {figures['floor_seconds']:8.3f} s  "
          f"runs {', '.join(f'{run:.3f}' for run in figures['floor_runs'])}")
    print(f"sweep  (exact prefix accounting + {len(POLICIES) * len(DEFAULT_BUDGETS)} cuts each): "
          f"{figures['sweep_seconds']:8.3f} s  runs {', '.join(f'{run:.3f}' for run in figures['sweep_runs'])}")
    print(f"sweep / floor = {ratio:.2f}   (median of the paired runs' ratios; target <= 1.5)")
    if naive_seconds is not None:
        print(f"naive  (binary search by re-encoding prefixes): {naive_seconds:8.3f} s")
        print(f"naive / sweep = {naive_seconds / figures['sweep_seconds']:.1f}   (target >= 10)")
    if "end_to_end_seconds" in figures:
        print(f"end to end core.sweep.sweep() (ordering, rendering, accounting, cuts, decoding every cut, "
              f"metrics): {figures['end_to_end_seconds']:.1f} s")


def child(services: int, noise_edges: int, formats: list[str]) -> None:
    """The large run, in its own process so that its peak memory is its own."""
    start = time.perf_counter()
    graph = service_graph(services, noise_edges, 7)
    frame = sweep(graph, [QUESTION], seeds=SEEDS, formats=formats, cache=None)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"seconds": seconds, "cpu_seconds": usage.ru_utime + usage.ru_stime,
                      "peak_mib": usage.ru_maxrss / 1024, "rows": len(frame), "nodes": len(graph.nodes),
                      "edges": len(graph.edges)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--services", type=int, default=2000)
    parser.add_argument("--noise-edges", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--formats", default=",".join(FORMATS.names()), help="comma-separated (default: all)")
    parser.add_argument("--large-services", type=int, default=20000)
    parser.add_argument("--large-noise-edges", type=int, default=40000)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--skip-naive", action="store_true")
    parser.add_argument("--skip-end-to-end", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    formats = [name for name in arguments.formats.split(",") if name]
    if arguments.child:
        child(arguments.services, arguments.noise_edges, formats)
        return
    figures = compare(arguments.services, arguments.noise_edges, arguments.repeats, formats,
                      not arguments.skip_end_to_end)
    naive_seconds = None
    if not arguments.skip_naive:
        tokenizer = TOKENIZERS.get("o200k_base")
        prepared = renderings(service_graph(arguments.services, arguments.noise_edges, 7), formats)
        start = time.perf_counter()
        naive = naive_sweep(tokenizer, prepared)
        naive_seconds = time.perf_counter() - start
        assert naive == budget_sweep(tokenizer, prepared), "the naive search and the sweep disagree"
    print_comparison(figures, naive_seconds)
    if not arguments.skip_large:
        command = [sys.executable, __file__, "--child", "--services", str(arguments.large_services),
                   "--noise-edges", str(arguments.large_noise_edges), "--formats", ",".join(formats)]
        result = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
        print(f"large: {result['nodes']:,} nodes, {result['edges']:,} edges, end-to-end sweep of every format, "
              f"ordering, layout, policy and budget ({result['rows']:,} cuts): {result['seconds']:.1f} s "
              f"({result['cpu_seconds']:.1f} s of CPU), peak memory {result['peak_mib']:,.0f} MiB")


if __name__ == "__main__":
    main()
