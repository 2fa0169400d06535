"""Where a CLI command gets its graph: the generated service graph (and, later, files and samples)."""

from __future__ import annotations

import argparse

from core.generate import service_graph
from core.graph import Graph


def non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative; give 0 or more")
    return value


def add_graph_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("graph source")
    group.add_argument("--services", type=non_negative, default=40, help="services in the generated graph (default 40)")
    group.add_argument("--noise-edges", type=non_negative, default=80,
                       help="random depends_on edges between services (default 80)")
    group.add_argument("--seed", type=int, default=7, help="random seed of the noise edges (default 7)")


def graph_from_arguments(arguments: argparse.Namespace) -> Graph:
    return service_graph(arguments.services, arguments.noise_edges, arguments.seed)


def graph_parameters(arguments: argparse.Namespace) -> dict:
    """The graph-source part of a report's parameters."""
    return {"services": arguments.services, "noise_edges": arguments.noise_edges, "seed": arguments.seed}
