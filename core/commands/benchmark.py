"""`graph-context-lab benchmark`: every format on one graph — size, exact tokens, round trip, traversal."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.benchmark import FormatFigures, benchmark_report
from core.commands.graph_source import add_graph_options, check_writable, graph_from_arguments, graph_parameters
from core.registry import TOKENIZERS


def format_table(figures: list[FormatFigures]) -> str:
    header = (f"{'format':<18} {'lossless':>8} {'bytes':>9} {'chars':>9} {'tokens':>8} {'grammar':>8} "
              f"{'round trip':>10} {'traversal':>9}")
    lines = [header, "-" * len(header)]
    for item in figures:
        lines.append(f"{item.name:<18} {'yes' if item.lossless else 'LOSSY':>8} {item.utf8_bytes:>9,} "
                     f"{item.characters:>9,} {item.tokens:>8,} {item.grammar_tokens:>8,} "
                     f"{'ok' if item.round_trip_equal else 'FAILS':>10} {item.traversal_accuracy:>9.2f}")
    return "\n".join(lines)


def run(arguments: argparse.Namespace) -> int:
    check_writable(arguments.output, "--output")  # before the work, not after it
    graph = graph_from_arguments(arguments)
    parameters = {**graph_parameters(arguments), "encoding": arguments.encoding, "output": str(arguments.output)}
    report, figures = benchmark_report(graph, arguments.encoding, parameters)
    arguments.output.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if arguments.contexts_dir:
        arguments.contexts_dir.mkdir(parents=True, exist_ok=True)
        for item in figures:
            (arguments.contexts_dir / f"graph.{item.name}.txt").write_text(item.text, encoding="utf-8")
    print(f"graph: {report['graph']['nodes']} nodes, {report['graph']['edges']} edges, "
          f"sha256 {report['graph_hash'][:16]}…, tokenizer {arguments.encoding}")
    print(format_table(figures))
    print(f"report written to {arguments.output}")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("benchmark", help="the reference benchmark: every format, exact tokens",
                                 description="Render a graph in every registered format, decode it back, "
                                             "run the reference queries and count exact tokens.")
    add_graph_options(parser)
    parser.add_argument("--encoding", default="o200k_base", choices=TOKENIZERS.names(),
                        help="tokenizer (default o200k_base)")
    parser.add_argument("--output", type=Path, default=Path("benchmark-results.json"),
                        help="JSON report path (default benchmark-results.json)")
    parser.add_argument("--contexts-dir", type=Path, help="also write each rendering to DIR/graph.<format>.txt")
    parser.set_defaults(run=run)
