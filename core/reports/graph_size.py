"""When a graph counts as large, and the figures of the graph itself that a page can show at once on any size.

On a large graph the dashboard does not measure every format when it opens: the Overview shows these
figures at once and measures every format when asked (behind progress, with a Stop button), and the
session's default budgets come from the formats on screen instead of every format's complete text.
Below the threshold nothing changes. The threshold counts units (nodes plus edges), which is what
rendering, counting and decoding scale with.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from core.graph.derived import derived
from core.graph.model import Graph

# About 20 s of measuring every format on the shared two-core machine (the 2,000-service graph, 6,011
# units, takes about 8 s; the largest generated graph, 240,005 units, minutes and over a gigabyte).
LARGE_GRAPH_UNITS = 20_000


def unit_count(graph: Graph) -> int:
    """Nodes plus edges: the units a rendering writes."""
    return len(graph.nodes) + len(graph.edges)


def is_large(graph: Graph, threshold: int = LARGE_GRAPH_UNITS) -> bool:
    """Whether the graph has more units than `threshold` (then every-format work waits for the user)."""
    return unit_count(graph) > threshold


@dataclass(frozen=True)
class GraphFigures:
    """What the graph holds, counted exactly without rendering anything."""

    nodes: int
    edges: int
    node_types: tuple[tuple[str, int], ...]  # (type, nodes), most common first, ties by name
    relations: tuple[tuple[str, int], ...]  # (relation, edges), most common first, ties by name
    property_values: int  # property pairs over every node and edge
    largest_out_degree: int
    largest_in_degree: int

    @property
    def units(self) -> int:
        return self.nodes + self.edges


def graph_figures(graph: Graph) -> GraphFigures:
    """Counts of nodes, edges, node types, relations, property values and the largest degrees (counted once per
    graph: the dashboard shows them on the Overview and again while a large graph's formats are rendered)."""
    return derived(graph, "graph_figures", lambda: _counted_figures(graph))


def _counted_figures(graph: Graph) -> GraphFigures:
    # map(attrgetter) lets Counter count in C: the largest graph's figures took most of a second
    out_degree = Counter(map(attrgetter("source"), graph.edges))
    in_degree = Counter(map(attrgetter("target"), graph.edges))
    properties = sum(len(node.properties) for node in graph.nodes) + sum(len(edge.properties) for edge in graph.edges)
    return GraphFigures(len(graph.nodes), len(graph.edges), _ranked(map(attrgetter("type"), graph.nodes)),
                        _ranked(map(attrgetter("relation"), graph.edges)), properties,
                        max(out_degree.values(), default=0), max(in_degree.values(), default=0))


def _ranked(values) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(Counter(values).items(), key=lambda pair: (-pair[1], pair[0])))
