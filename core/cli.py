"""The `graph-context-lab` command line: the same computations as the dashboard, headless."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from core.benchmark import FormatFigures, benchmark_report
from core.errors import GraphContextError, ParameterError
from core.generate import service_graph
from core.registry import FORMATS, TOKENIZERS


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; give 0 or more")
    return value


def _add_graph_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("generated service graph")
    group.add_argument("--services", type=_non_negative, default=40, help="services in the graph (default 40)")
    group.add_argument("--noise-edges", type=_non_negative, default=80,
                       help="random depends_on edges between services (default 80)")
    group.add_argument("--seed", type=int, default=7, help="random seed of the noise edges (default 7)")


def _format_table(figures: list[FormatFigures]) -> str:
    header = f"{'format':<16} {'lossless':>8} {'bytes':>9} {'chars':>9} {'tokens':>8} {'grammar':>8} " \
             f"{'round trip':>10} {'traversal':>9}"
    lines = [header, "-" * len(header)]
    for item in figures:
        lines.append(f"{item.name:<16} {'yes' if item.lossless else 'LOSSY':>8} {item.utf8_bytes:>9,} "
                     f"{item.characters:>9,} {item.tokens:>8,} {item.grammar_tokens:>8,} "
                     f"{'ok' if item.round_trip_equal else 'FAILS':>10} {item.traversal_accuracy:>9.2f}")
    return "\n".join(lines)


def run_benchmark(arguments: argparse.Namespace) -> int:
    graph = service_graph(arguments.services, arguments.noise_edges, arguments.seed)
    parameters = {"services": arguments.services, "noise_edges": arguments.noise_edges, "seed": arguments.seed,
                  "encoding": arguments.encoding, "output": str(arguments.output)}
    report, figures = benchmark_report(graph, arguments.encoding, parameters)
    arguments.output.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if arguments.contexts_dir:
        arguments.contexts_dir.mkdir(parents=True, exist_ok=True)
        for item in figures:
            (arguments.contexts_dir / f"graph.{item.name}.txt").write_text(item.text, encoding="utf-8")
    print(f"graph: {report['graph']['nodes']} nodes, {report['graph']['edges']} edges, "
          f"sha256 {report['graph_hash'][:16]}…, tokenizer {arguments.encoding}")
    print(_format_table(figures))
    print(f"report written to {arguments.output}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="graph-context-lab", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    benchmark = commands.add_parser("benchmark", help="the reference benchmark: every format, exact tokens",
                                    description="Render a graph in every registered format, decode it back, "
                                                "run the reference queries and count exact tokens.")
    _add_graph_options(benchmark)
    benchmark.add_argument("--encoding", default="o200k_base", choices=TOKENIZERS.names(),
                           help="tokenizer (default o200k_base)")
    benchmark.add_argument("--output", type=Path, default=Path("benchmark-results.json"),
                           help="JSON report path (default benchmark-results.json)")
    benchmark.add_argument("--contexts-dir", type=Path, help="also write each rendering to DIR/graph.<format>.txt")
    benchmark.set_defaults(run=run_benchmark)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        return arguments.run(arguments)
    except GraphContextError as error:
        print(f"graph-context-lab: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"graph-context-lab: error: {error.strerror or error} ({error.filename})", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
