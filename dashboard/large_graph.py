"""Whether the loaded graph counts as large for this server: core's threshold, or the one its environment sets."""

from __future__ import annotations

import os

from core.graph.model import Graph
from core.reports.graph_size import LARGE_GRAPH_UNITS, is_large

THRESHOLD_VARIABLE = "GRAPH_CONTEXT_LAB_LARGE_GRAPH_UNITS"  # a server's own threshold (the tests set a small one)


def large_graph_units() -> int:
    """The threshold in units (nodes plus edges): the environment variable if set to a whole number, else core's."""
    value = os.environ.get(THRESHOLD_VARIABLE, "").strip()
    return int(value) if value.isdigit() else LARGE_GRAPH_UNITS


def large(graph: Graph) -> bool:
    return is_large(graph, large_graph_units())
