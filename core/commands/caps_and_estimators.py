"""`benchmark --caps N,M [--cap-kind edges|nodes|records]` and the estimator-error table: options, tables, JSON keys.

Kept apart from core/commands/benchmark.py, which calls `add_options` and `print_count_caps` /
`print_estimator_error`: what a count cap costs (`core.analysis.count_caps`) and how far chars/4, chars/3 and
words × 1.3 are from the exact count (`core.analysis.estimator_error`), both through the workbench.
"""

from __future__ import annotations

import argparse

from core.analysis.count_caps import ANCHOR_ORDERING, CAP_KINDS, CapCost, parse_caps
from core.analysis.estimator_error import EstimatorError, complete_text_specs
from core.analysis.session_defaults import graph_defaults
from core.commands.text_table import text_table
from core.errors import ParameterError
from core.number_style import signed_share, whole
from core.queries import Query
from core.retrieval import ORDERINGS
from core.specs import SweepSpec
from core.tokens.estimators import ESTIMATOR_NAMES
from core.tokens.models import approximate_count
from core.workbench import Workbench


def caps(text: str) -> tuple[int, ...]:
    """An argparse type: comma-separated counts of 1 or more (30,100), read by core.analysis.count_caps."""
    try:
        return parse_caps(text)
    except ParameterError as error:
        raise argparse.ArgumentTypeError(f"{error.what}; {error.fix}") from None


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("count caps")
    group.add_argument("--caps", type=caps, metavar="N,M",
                       help="what a retriever's count cap costs (\"top 30 triplets\", LIMIT 100): the exact tokens of "
                            f"each format's rendering holding the first N units, in the {ANCHOR_ORDERING} order and "
                            "min / median / max over the orderings that do not read the answer (JSON key count_caps)")
    group.add_argument("--cap-kind", choices=CAP_KINDS, default="edges",
                       help="what the caps count: edges (triples), nodes, or the format's records (default edges)")


def caps_spec(graph, query: Query | None, sample, tokenizer_name: str) -> SweepSpec:
    """The spec the caps are priced on: every format, every ordering that does not read the answer, the asked
    query's seeds (else the graph's default question's, as a session starts with)."""
    defaults = graph_defaults(graph, sample)
    chosen = query if query is not None else defaults.query
    return SweepSpec.from_names(graph, [chosen], seeds=chosen.seeds or defaults.seeds, tokenizer_name=tokenizer_name,
                                ordering_names=[name for name in ORDERINGS.names() if not ORDERINGS.get(name).oracle])


def caps_table(costs: list[CapCost], approximate: bool = False) -> str:
    """Per format (rows): each cap's tokens in the anchor order, and min / median / max over the orderings."""
    formats = list(dict.fromkeys(item.format_name for item in costs))
    by_cell = {(item.format_name, item.cap): item for item in costs}
    columns: dict[str, list[str]] = {"format": formats}
    for cap in dict.fromkeys(item.cap for item in costs):
        cells = [by_cell[name, cap] for name in formats]
        kind = cells[0].kind
        columns[f"{cap:,} {kind}"] = [_held(item, approximate) for item in cells]
        columns[f"spread at {cap:,}"] = [
            " / ".join(approximate_count(round(value), approximate) for value in (item.minimum, item.median,
                                                                                   item.maximum)) for item in cells]
    columns["counted"] = [", ".join(dict.fromkeys(by_cell[name, cap].anchor.method for cap in
                                                  dict.fromkeys(item.cap for item in costs))) for name in formats]
    return text_table(columns)


def _held(item: CapCost, approximate: bool) -> str:
    """The tokens, and what the rendering holds where it is not the cap: all there are, or the units records carry."""
    text = approximate_count(item.anchor.tokens, approximate)
    notes = []
    if item.anchor.held < item.cap:
        notes.append(f"all {item.anchor.held:,}")
    if item.kind == "records" and item.anchor.units != item.anchor.held:
        notes.append(f"{item.anchor.units:,} units")
    return text + (f" ({', '.join(notes)})" if notes else "")


def print_count_caps(report: dict, graph, arguments: argparse.Namespace, choice, query: Query | None,
                     sample) -> None:
    """The caps table per tokenizer, and `report["count_caps"]`."""
    spec = caps_spec(graph, query, sample, choice.names[0])
    costs = list(Workbench().count_caps(spec, arguments.caps, kind=arguments.cap_kind, tokenizer_names=choice.names))
    orderings = costs[0].orderings
    report["count_caps"] = {"kind": arguments.cap_kind, "caps": list(arguments.caps), "seeds": list(spec.seeds),
                            "anchor_ordering": ANCHOR_ORDERING, "orderings": list(orderings),
                            "rows": [item.as_dict() for item in costs]}
    what = {"edges": "edges alone", "nodes": "nodes alone", "records": "records (nodes then edges)"}[arguments.cap_kind]
    for tokenizer_name in choice.names:
        print(f"count caps ({tokenizer_name}): tokens of each format's rendering holding the first N {what}, "
              f"in {ANCHOR_ORDERING} order from the seeds {', '.join(spec.seeds)}, and their spread (min / median / "
              f"max) over "
              f"{len(orderings)} orderings ({', '.join(orderings)}); counted: prefix = read off the prefix counts, "
              "rendered = records that group units, the first N rendered alone")
        print(caps_table([item for item in costs if item.tokenizer_name == tokenizer_name], choice.approximate))


def estimator_table(errors: list[EstimatorError], approximate: bool = False) -> str:
    """Per format and tokenizer: the exact tokens and each estimator's signed error."""
    columns: dict[str, list[str]] = {"format": [item.format_name for item in errors]}
    if len({item.tokenizer_name for item in errors}) > 1:
        columns["tokenizer"] = [item.tokenizer_name for item in errors]
    columns["chars"] = [whole(item.characters) for item in errors]
    columns["words"] = [whole(item.words) for item in errors]
    columns["exact"] = [approximate_count(item.exact, approximate) for item in errors]
    for index, name in enumerate(ESTIMATOR_NAMES):
        columns[name] = [signed_share(item.errors[index]) for item in errors]
    return text_table(columns, left=("format", "tokenizer"))


def print_estimator_error(report: dict, graph, choice) -> None:
    """The estimator table and `report["estimator_error"]`."""
    errors = Workbench().estimator_error(complete_text_specs(graph, tokenizer_names=choice.names))
    report["estimator_error"] = {"rounding": "estimates rounded up to a whole token; error_percent = "
                                             "(estimate - exact) / exact x 100, one decimal",
                                 "rows": [item.as_dict() for item in errors]}
    print(f"estimator error: chars/4, chars/3 and words×1.3 (each rounded up) against the exact tokens of each "
          f"complete text, (estimate − exact) / exact; + over-counts, − under-counts ({', '.join(choice.names)})")
    print(estimator_table(errors, choice.approximate))
