"""`graph-context-lab benchmark`: every format on one graph — size, exact tokens, round trip, traversal."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.analysis.context_windows import request_room
from core.analysis.cost_stability import DEFAULT_PERMUTATIONS, MAX_PERMUTATIONS
from core.analysis.request_anatomy import request_rows
from core.analysis.session_defaults import graph_defaults
from core.analysis.tokenizer_comparison import tokens_per_format, winner_sentence
from core.commands import caps_and_estimators
from core.commands.edit_stability import add_edit_options, print_prefix_stability
from core.commands.graph_source import (
    add_graph_options,
    check_writable,
    graph_from_arguments,
    graph_parameters,
    named_sample,
)
from core.commands.sweep import add_seed_and_query_options, seeds_and_queries
from core.commands.text_table import text_table
from core.commands.tokenizer_options import TokenizerChoice, add_tokenizer_options, chosen_tokenizers
from core.formats import FORMATS
from core.io.whole_file import write_whole
from core.number_style import share
from core.prompt.answers import schema_for
from core.queries import Query
from core.queries.answerable import has_answer
from core.reports.benchmark import FormatFigures, benchmark_report
from core.tokens import TOKENIZERS
from core.tokens.models import approximate_count

GENERIC_QUESTION = "Which nodes and relations does the graph hold?"  # for a graph without a question of its own


def format_table(figures: list[FormatFigures], approximate: bool = False) -> str:
    return text_table({
        "format": [item.name for item in figures],
        "lossless": ["yes" if item.lossless else "LOSSY" for item in figures],
        "bytes": [f"{item.utf8_bytes:,}" for item in figures],
        "chars": [f"{item.characters:,}" for item in figures],
        "tokens": [approximate_count(item.tokens, approximate) for item in figures],
        "grammar": [approximate_count(item.grammar_tokens, approximate) for item in figures],
        "round trip": ["ok" if item.round_trip_equal else "FAILS" for item in figures],
        "traversal": [share(item.traversal_accuracy) for item in figures]})


def stability_table(stability: dict, approximate: bool = False) -> str:
    """Per format: tokens min / median / max and max/min under relabelled ids and under shuffled orders."""
    def spread(figures: dict) -> str:
        return (f"{approximate_count(figures['min'], approximate)} / {approximate_count(round(figures['median']), approximate)}"
                f" / {approximate_count(figures['max'], approximate)}")

    return text_table({
        "format": list(stability),
        "relabeled min/median/max": [spread(item["relabeled"]) for item in stability.values()],
        "relabeled max/min": [f"{item['relabeled']['max_over_min']:.3f}" for item in stability.values()],
        "permuted min/median/max": [spread(item["permuted"]) for item in stability.values()],
        "permuted max/min": [f"{item['permuted']['max_over_min']:.3f}" for item in stability.values()]})


def tokenizer_table(table, choice: TokenizerChoice) -> str:
    """Tokens per format (rows) under each tokenizer (columns), then the sentence on the cheapest lossless one."""
    columns = {"format": [str(name) for name in table.index]}
    columns |= {str(name): [approximate_count(int(value), choice.approximate) for value in table[name]]
                for name in table.columns}
    return text_table(columns) + "\n" + winner_sentence(table)


def asked_queries(graph, arguments: argparse.Namespace) -> dict[str, Query] | None:
    """The queries the benchmark runs on the decoded texts, by label: the one asked (--question, --query or
    --seeds, read and printed as every command reads them; refused when it has no answer on the graph), else a
    sample's own or the graph's default question, where it has an answer, else none (traversal is then not
    measured); None on the generated service graph, which runs the reference suite. A query without an answer
    would score every text that parses, lossy ones too."""
    if arguments.question is not None or arguments.query is not None or arguments.seeds is not None:
        return {bound.label: bound for bound in seeds_and_queries(graph, arguments)[1]}
    if arguments.graph is None and arguments.generator == "services" and not arguments.generator_option:
        return None
    sample = named_sample(arguments)
    chosen = graph_defaults(graph, sample).query
    where = "the sample" if sample is not None else "the graph"
    if not has_answer(chosen, chosen.solve(graph)):
        print(f"no query: {where}'s default question ({chosen.question_on(graph)}) has no answer here, so traversal "
              "is not measured (—); ask one with --question, --query or --seeds")
        return {}
    print(f"query from {where} (--question, --query or --seeds to change): {chosen.question_on(graph)}")
    return {chosen.label: chosen}


def verdict(figures: list[FormatFigures], encoding: str, approximate: bool) -> str:
    """The first line: the cheapest lossless format that decodes back and answers, against the dearest one."""
    unmeasured = all(item.traversal_accuracy is None for item in figures)
    answering = [item for item in figures if item.lossless and item.round_trip_equal
                 and (unmeasured or item.traversal_accuracy == 1)]
    if not answering:
        return "verdict: no lossless format both decodes back to the graph and answers the queries"
    if unmeasured:
        cheapest = min(answering, key=lambda item: (item.tokens, item.name))
        return (f"verdict: {cheapest.name} is the cheapest lossless format that decodes back: "
                f"{approximate_count(cheapest.tokens, approximate)} tokens ({encoding}); no query was run")
    cheapest = min(answering, key=lambda item: (item.tokens, item.name))
    dearest = max(answering, key=lambda item: (item.tokens, item.name))
    return (f"verdict: {cheapest.name} is the cheapest lossless format that decodes back and answers: "
            f"{approximate_count(cheapest.tokens, approximate)} tokens ({encoding}) against "
            f"{approximate_count(dearest.tokens, approximate)} for {dearest.name}, "
            f"{dearest.tokens / max(cheapest.tokens, 1):.1f}x")


def run(arguments: argparse.Namespace) -> int:
    if arguments.output is not None:
        check_writable(arguments.output, "--output")  # before the work, not after it
    graph = graph_from_arguments(arguments)
    choice = chosen_tokenizers(arguments)
    encoding = choice.names[0]
    parameters = {**graph_parameters(arguments), "encoding": encoding, **choice.parameters(),
                  "output": str(arguments.output) if arguments.output is not None else None}
    queries = asked_queries(graph, arguments)
    preset = next(iter(queries.values()), None) if queries else None
    report, figures = benchmark_report(graph, encoding, parameters, queries=queries,
                                       permutations=arguments.permutations)
    table = tokens_per_format(graph, choice.names)
    report["tokens_by_tokenizer"] = {name: {format_name: int(count) for format_name, count in column.items()}
                                     for name, column in table.items()}
    report["tokenizer_sources"] = {name: {"family": TOKENIZERS.get(name).family,
                                          "source": TOKENIZERS.get(name).source,
                                          "licence": TOKENIZERS.get(name).licence} for name in choice.names}
    report["approximate"] = choice.approximate
    if arguments.contexts_dir:
        arguments.contexts_dir.mkdir(parents=True, exist_ok=True)
        for item in figures:
            write_whole(arguments.contexts_dir / f"graph.{item.name}.txt", item.text)
    print(verdict(figures, encoding, choice.approximate))
    print(f"graph: {report['graph']['nodes']} nodes, {report['graph']['edges']} edges, "
          f"sha256 {report['graph_hash'][:16]}…, {choice.describe()}")
    for label, answer in report["gold_queries"].items():
        print(f"query {label}: gold answer {json.dumps(answer, ensure_ascii=False)[:120]}")
    print(format_table(figures, choice.approximate))
    if "cost_stability" in report:
        print(f"cost stability ({encoding}): tokens with node ids as names, opaque ids and numbers; "
              f"and in {arguments.permutations} shuffled unit orders")
        print(stability_table(report["cost_stability"], choice.approximate))
    if len(choice.names) > 1:
        print("tokens of the complete text per tokenizer:")
        print(tokenizer_table(table, choice))
    elif choice.model is not None and choice.model.approximate:
        print(f"token counts are approximate: {choice.model.note}")
    caps_and_estimators.print_estimator_error(report, graph, choice)
    if arguments.caps:
        caps_and_estimators.print_count_caps(report, graph, arguments, choice, preset, named_sample(arguments))
    if arguments.edits:
        print_prefix_stability(report, graph, arguments, queries, encoding, choice.approximate)
    if choice.reader is not None:
        print_request_table(report, graph, choice.reader, TOKENIZERS.get(choice.names[0]), preset)
    if arguments.output is not None:  # last: the request table adds to the report
        write_whole(arguments.output, json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        print(f"report written to {arguments.output}")
    if arguments.contexts_dir:
        print(f"renderings written to {arguments.contexts_dir}/graph.<format>.txt")
    return 0


def _permutations(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_PERMUTATIONS:
        raise argparse.ArgumentTypeError(f"give 0 to {MAX_PERMUTATIONS} orders, not {value}")
    return value


def print_request_table(report: dict, graph, reader: str, tokenizer, preset) -> None:
    """The whole request per format as the reader's provider bills it (wrapper + frame + context), and what fits."""
    question = preset.question_on(graph) if preset is not None else GENERIC_QUESTION
    schema = schema_for(preset.name if preset is not None else "", preset.solve(graph).answer if preset else None)
    rows = request_rows(reader, tokenizer, schema, question, graph, FORMATS.names())
    room = request_room(reader, tokenizer, schema, question)
    report["request"] = {"reader": reader, "question": question, "rows": rows,
                         "what_fits": room.fits if room else None, "window_source": room.describe() if room else None}
    if not rows:
        print(f"the whole request: {reader} publishes no chat template, so its wrapper is not counted")
    else:
        print(f"the whole request to {reader} ({rows[0]['chat template']}) per format, the complete text as context:")
        print(text_table({key: [f"{row[key]:,}" if isinstance(row[key], int) else row[key] for row in rows]
                          for key in ("format", "wrapper", "frame", "context", "total")}))
    if room is not None:
        print(room.describe())


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("benchmark", help="the reference benchmark: every format, exact tokens",
                                 description="Render a graph in every registered format, decode it back, "
                                             "run the reference queries and count exact tokens.")
    add_graph_options(parser)
    add_seed_and_query_options(parser, "the query run on each decoded text (default: the sample's own, or one the "
                                       "graph answers)")
    add_tokenizer_options(parser)
    parser.add_argument("--output", type=Path,
                        help="write the JSON report (parameters, gold answers, figures per format, hashes, "
                             "versions) to this path; without it nothing is written")
    parser.add_argument("--permutations", type=_permutations, default=DEFAULT_PERMUTATIONS,
                        help=f"shuffled unit orders for the cost stability table (0 leaves it out; "
                             f"default {DEFAULT_PERMUTATIONS}, at most {MAX_PERMUTATIONS})")
    parser.add_argument("--contexts-dir", type=Path, help="also write each rendering to DIR/graph.<format>.txt")
    caps_and_estimators.add_options(parser)
    add_edit_options(parser)
    parser.set_defaults(run=run)
