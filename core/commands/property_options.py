"""--include-property and --exclude-property: filter node and edge properties before any format renders them."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from core.analysis.property_savings import check_needed_properties, property_savings
from core.graph.model import Graph
from core.graph.property_filter import PropertyFilter, filter_properties
from core.queries import Query


def add_property_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("properties rendered (names or wildcards; node:PATTERN or edge:PATTERN for "
                                      "one kind)")
    group.add_argument("--include-property", action="append", default=[], metavar="PATTERN",
                       help="keep only the properties matching a pattern given (repeat for several)")
    group.add_argument("--exclude-property", action="append", default=[], metavar="PATTERN",
                       help="drop the properties matching the pattern, e.g. 'embedding*' (repeat for several); a "
                            "property a query needs is refused by name")


def property_filter(arguments: argparse.Namespace) -> PropertyFilter:
    return PropertyFilter(tuple(arguments.include_property), tuple(arguments.exclude_property))


def filtered_graph(graph: Graph, arguments: argparse.Namespace, queries: Sequence[Query],
                   format_names: Sequence[str] | None, tokenizer: str) -> Graph:
    """The graph with the properties the options keep; refused when a query needs one dropped. Prints the
    tokens saved per format (the complete rendering, counted before and after)."""
    chosen = property_filter(arguments)
    if not chosen.active:
        return graph
    check_needed_properties(graph, chosen, queries)
    filtered = filter_properties(graph, chosen)
    print(f"properties: {chosen.describe()}; tokens saved per format ({tokenizer}, complete rendering):")
    for saving in property_savings(graph, filtered, format_names, tokenizer):
        print(f"  {saving.format}: {saving.tokens_before:,} -> {saving.tokens_after:,} ({saving.saved:,} saved)")
    return filtered
