"""`graph-context-lab describe`: the graph's own figures (no rendering), and whether the dashboard counts it as large."""

from __future__ import annotations

import argparse

from core.commands.graph_source import add_graph_options, graph_from_arguments, non_negative
from core.reports.graph_size import LARGE_GRAPH_UNITS, graph_figures, is_large

SHOWN_VALUES = 10  # node types and relations listed, most common first


def run(arguments: argparse.Namespace) -> int:
    graph = graph_from_arguments(arguments)
    figures = graph_figures(graph)
    print(f"{figures.nodes:,} nodes, {figures.edges:,} edges ({figures.units:,} units), "
          f"{figures.property_values:,} property values, sha256 {graph.sha256[:16]}…")
    print(f"largest out-degree {figures.largest_out_degree:,}, largest in-degree {figures.largest_in_degree:,}")
    for (one, many), values in ((("node type", "node types"), figures.node_types),
                                (("relation", "relations"), figures.relations)):
        title = one if len(values) == 1 else many
        listed = ", ".join(f"{name} {count:,}" for name, count in values[:SHOWN_VALUES])
        more = f" and {len(values) - SHOWN_VALUES:,} more" if len(values) > SHOWN_VALUES else ""
        print(f"{len(values):,} {title}: {listed}{more}")
    threshold = arguments.large_graph_units
    if is_large(graph, threshold):
        print(f"large: more than {threshold:,} units, so the dashboard's Overview measures every format only when "
              "asked and its default budgets come from the formats on screen")
    else:
        print(f"not large (at most {threshold:,} units): the dashboard's Overview measures every format at once")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("describe", help="the graph's own figures, without rendering it",
                                 description="Count a graph's nodes, edges, node types, relations, property values "
                                             "and largest degrees (exact, nothing rendered or tokenized), and say "
                                             "whether the dashboard treats it as a large graph.")
    add_graph_options(parser)
    parser.add_argument("--large-graph-units", type=non_negative, default=LARGE_GRAPH_UNITS, metavar="UNITS",
                        help=f"the threshold in nodes plus edges (default {LARGE_GRAPH_UNITS:,}, the dashboard's)")
    parser.set_defaults(run=run)
