"""`benchmark --edits N [--edit-seed S] [--edit-radius R]`: what a prompt cache keeps of each rendering after an edit.

Kept apart from core/commands/benchmark.py, which calls `add_edit_options` and `print_prefix_stability`: per format
and ordering (nodes then edges), the share of the rendering's tokens that stay a byte-identical prefix after
each of N edits to the graph (`core.analysis.prefix_stability`, through the workbench); JSON key
`prefix_stability`.
"""

from __future__ import annotations

import argparse

from core.analysis.prefix_stability import PrefixStability
from core.analysis.session_defaults import graph_defaults
from core.commands.graph_source import named_sample, non_negative
from core.commands.text_table import text_table
from core.graph.edits import MAX_EDITS
from core.graph.model import Graph
from core.number_style import share
from core.queries import Query
from core.specs import SweepSpec
from core.tokens.models import approximate_count
from core.workbench import Workbench


def edit_count(text: str) -> int:
    """An argparse type: 0 (no edits, the default) to MAX_EDITS."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_EDITS:
        raise argparse.ArgumentTypeError(f"give 0 to {MAX_EDITS:,} edits, not {value}")
    return value


def add_edit_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("prefix stability under edits")
    group.add_argument("--edits", type=edit_count, default=0, metavar="N",
                       help="edit the graph N times (a node added, an edge removed or a property changed, each drawn "
                            "on its own from the original graph) and report, per format and ordering, the share of "
                            "each rendering's tokens that stay a byte-identical prefix: what a provider's prompt cache "
                            "keeps (JSON key prefix_stability; default 0: not measured)")
    group.add_argument("--edit-seed", type=int, default=0, metavar="S",
                       help="random seed of the first edit; edit i is drawn with S + i (default 0)")
    group.add_argument("--edit-radius", type=non_negative, metavar="R",
                       help="with --edits: render only the units within R hops of the seeds, so an edit farther away "
                            "falls outside the context (default: the whole graph)")


def edits_spec(graph: Graph, queries: dict[str, Query] | None, sample, tokenizer_name: str,
               radius: int | None) -> SweepSpec:
    """Every format and ordering, nodes then edges, around the asked query's seeds (else the graph's default
    question's, as a session starts with); the query gives the orderings that read it their evidence and question."""
    defaults = graph_defaults(graph, sample)
    chosen = next(iter(queries.values())) if queries else defaults.query
    return SweepSpec.from_names(graph, [chosen], seeds=chosen.seeds or defaults.seeds, tokenizer_name=tokenizer_name,
                                layouts=["nodes_then_edges"], radius=radius)


def stability_table(result: PrefixStability, approximate: bool = False) -> str:
    """Per format and ordering: tokens of the original rendering, and the mean, min and max cached share."""
    rows = result.renderings  # each format's orderings together
    edits = len(result.edits)
    return text_table({
        "format": [item.format_name for item in rows],
        "ordering": [item.ordering_name for item in rows],
        "tokens": [approximate_count(item.tokens, approximate) for item in rows],
        "mean cached": [share(item.mean_share) for item in rows],
        "min": [share(item.min_share) for item in rows],
        "max": [share(item.max_share) for item in rows],
        "text changed": [f"{sum(item.changed):,} of {edits:,}" for item in rows]}, left=("format", "ordering"))


def describe(result: PrefixStability) -> list[str]:
    """The heading lines: what was measured, how many edits touched the context, and each edit with its seed."""
    where = ("the whole graph" if result.radius is None
             else f"U_{result.radius}(S), the units within {result.radius} hop(s) of the seeds")
    lines = [f"prefix stability under edits ({result.tokenizer_name}): {len(result.edits):,} edits from seed "
             f"{result.edit_seed}, each applied to the original graph; rendered: {where}, seeds "
             f"{', '.join(result.seeds)}; {result.touching:,} of {len(result.edits):,} edits touched the rendered units",
             "share of each rendering's tokens that stay a byte-identical prefix (what a provider's prompt cache keeps):"]
    lines += [f"  edit {index + 1} (seed {edit.seed}, {edit.kind}{'' if hit else ', outside the context'}): {edit.what}"
              for index, (edit, hit) in enumerate(zip(result.edits, result.touched))]
    return lines


def print_prefix_stability(report: dict, graph: Graph, arguments: argparse.Namespace,
                           queries: dict[str, Query] | None, tokenizer_name: str, approximate: bool = False) -> None:
    """Measure through a workbench, add `prefix_stability` to the report and print the edits and the table."""
    spec = edits_spec(graph, queries, named_sample(arguments), tokenizer_name, arguments.edit_radius)
    result = Workbench().prefix_stability(spec, arguments.edits, arguments.edit_seed)
    report["prefix_stability"] = result.as_dict()
    print("\n".join(describe(result)))
    print(stability_table(result, approximate))
