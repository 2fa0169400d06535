"""`graph-context-lab convert IN OUT --to FORMAT`: read any importable file or sample, save it in another format."""

from __future__ import annotations

import argparse
from pathlib import Path

from core.commands.graph_source import add_loader_options, check_writable, load_file_or_sample
from core.io.saving import NODES_SUFFIX, export_format_names, save_graph_files


def run(arguments: argparse.Namespace) -> int:
    check_writable(arguments.output, "OUT")
    graph = load_file_or_sample(arguments.input, arguments)
    written = save_graph_files(graph, arguments.to, arguments.output)
    print(f"read {arguments.input}: {len(graph.nodes):,} nodes, {len(graph.edges):,} edges, "
          f"sha256 {graph.sha256[:16]}…")
    for path in written:
        print(f"wrote {path} ({arguments.to})")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("convert", help="save a graph file or sample in another format",
                                 description="Read a graph (any importable file, or a sample name) and save it in "
                                             "a lossless format, GraphML, node-link JSON, the CKG learning-graph "
                                             f"CSV, or as spreadsheet-safe edge-list CSVs (OUT plus OUT{NODES_SUFFIX} "
                                             "with the stem of OUT; formula-like cells get a leading ').")
    parser.add_argument("input", metavar="IN", help="a graph file or a sample name")
    parser.add_argument("output", metavar="OUT", type=Path, help="the file to write")
    parser.add_argument("--to", required=True, choices=export_format_names(), help="the format to write")
    add_loader_options(parser)
    parser.set_defaults(run=run)
