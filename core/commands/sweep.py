"""`graph-context-lab sweep`: cut every format, ordering and policy at every budget; write one row per cut."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import pandas as pd

from core.analysis.answer_front import front_lines, reach_points
from core.analysis.cut_reports import sweep_cut_reports
from core.analysis.pareto import dominance_across_budgets
from core.analysis.session_defaults import graph_defaults
from core.analysis.sweep import rendering_summary
from core.analysis.tokenizer_comparison import pareto_per_tokenizer
from core.budget import DEFAULT_POLICIES, POLICIES
from core.budget.budget_list import parse_budgets
from core.budget.sections import DEFAULT_SECTIONS, Sections
from core.commands.graph_source import (
    add_graph_options,
    check_writable,
    graph_from_arguments,
    graph_parameters,
    named_sample,
    non_negative,
)
from core.commands.name_lists import known_names
from core.commands.progress import CountBar
from core.commands.property_options import add_property_options, filtered_graph
from core.commands.text_table import text_table
from core.commands.tokenizer_options import add_tokenizer_options, chosen_tokenizers
from core.commands.verdict import best_per_budget, pareto_summary, stage, verdict_table
from core.errors import GraphContextError, ParameterError
from core.execution.workers import default_workers
from core.formats import FORMATS
from core.graph.hops import DIRECTIONS
from core.graph.model import Graph
from core.io.spreadsheet import spreadsheet_csv
from core.io.whole_file import write_whole
from core.number_style import share
from core.queries import QUERIES, Query, QueryTemplate, query_from_seeds
from core.queries.answerable import has_answer, require_answer
from core.questions.reading import read_question
from core.reports.exports import plain_value
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS
from core.retrieval.seeds import Seeds, seeds_from_ids
from core.specs import DEFAULT_BUDGETS, SweepSpec
from core.workbench import Workbench

DEFAULT_QUERY = "impact_owners"


def names(kind: str, registry_names: list[str] | tuple[str, ...]):
    """An argparse type: a comma-separated list of known names."""
    def parse(text: str) -> list[str]:
        chosen = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in chosen if name not in registry_names]
        if unknown or not chosen:
            raise argparse.ArgumentTypeError(f"unknown {kind} {', '.join(map(repr, unknown)) or '(none given)'}; "
                                             f"use one or more of: {known_names(unknown, registry_names)}")
        return chosen
    return parse


def budgets(text: str) -> list[int]:
    """An argparse type: a budget list in core.budget.budget_list's grammar (`512,1024` or `512 1024`)."""
    try:
        return list(parse_budgets(text))
    except ParameterError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def section_shares(text: str) -> Sections:
    """`NODES,EDGES`: two shares of the budget between 0 and 1, or two whole token counts."""
    parts = [part.strip() for part in text.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        if all(part.isdigit() for part in parts) and any(int(part) > 1 for part in parts):
            return Sections(node_tokens=int(parts[0]), edge_tokens=int(parts[1]))
        return Sections(float(parts[0]), float(parts[1]))
    except (ValueError, ParameterError) as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not NODES,EDGES shares (0 to 1, adding up to 1 or less) or "
                                         f"token counts{': ' + str(error) if str(error) else ''}") from None


def parse_query(text: str, seeds: tuple[str, ...]) -> Query:
    """`NAME[:PARAM=VALUE,...]`; node parameters not given are taken from the seeds in order."""
    name, _, given = text.partition(":")
    template = QUERIES.get(name.strip())
    arguments: dict[str, object] = {}
    for pair in filter(None, (part.strip() for part in given.split(","))):
        key, separator, value = pair.partition("=")
        key = key.strip()
        if not separator or key not in template.parameters:
            raise ParameterError(f"{pair!r} is not PARAM=VALUE for a parameter of {template.name}",
                                 f"--query {text}", f"parameters of {template.name}: {', '.join(template.parameters)}")
        arguments[key] = _typed(template, key, value.strip())
    return query_from_seeds(template, seeds, **arguments)


def _typed(template: QueryTemplate, key: str, value: str) -> object:
    """A parameter's value as its solver takes it: a whole number, a list of nodes (a+b+c) or text."""
    kind = template.parameter_kind(key)  # what the template declares the parameter holds
    if kind == "nodes":
        return tuple(part for part in value.split("+") if part)
    if kind != "number":
        return value
    default = template.defaults().get(key)
    try:
        number = int(value)
    except ValueError:
        raise ParameterError(f"{key}={value!r} is not a whole number", f"query {template.name}",
                             f"give {key} as a whole number, e.g. {key}={default}") from None
    if number < 0:  # hops, depths and counts: a negative one would silently mean "none"
        raise ParameterError(f"{key}={number} is negative", f"query {template.name}",
                             f"give {key} as 0 or more, e.g. {key}={default}")
    return number


def check_query_nodes(graph: Graph, queries: list[Query]) -> None:
    """Every node a query names exists in the graph (else it would run, and answer, about nothing)."""
    for bound in queries:
        arguments = bound.all_arguments
        for name in bound.template.node_parameters:
            value = arguments.get(name)
            for node_id in (value if isinstance(value, tuple) else (value,)):
                if node_id not in graph.node_by_id:
                    raise ParameterError(f"query {bound.name} names the node {node_id!r} ({name}), which is not in "
                                         "the graph", f"--query {bound.name}",
                                         f"give {name} an id of the graph ({', '.join(list(graph.node_by_id)[:5])}, ...)")


def choose_seeds(graph: Graph, arguments: argparse.Namespace) -> Seeds | None:
    """The seeds --seeds names (by id), or None without it."""
    if arguments.seeds is None:
        return None
    ids = [part.strip() for part in arguments.seeds.split(",") if part.strip()]
    if not ids:
        raise ParameterError("--seeds is empty", "--seeds", "give seed node ids separated by commas, or leave "
                             "the option out (the queries' own nodes are then the seeds)")
    return seeds_from_ids(graph, ids)


def answer_front(frame: pd.DataFrame) -> pd.DataFrame:
    """The front over what answers (core.analysis.answer_front), per tokenizer when several were swept."""
    groups = [key for key in ("tokenizer", "ordering", "layout", "policy") if key in frame.columns]
    return reach_points(frame, groups=groups)


def write_results(path: Path, frame: pd.DataFrame, summary: pd.DataFrame, verdicts: pd.DataFrame) -> None:
    if path.suffix.lower() == ".json":
        document = {"parameters": frame.attrs.get("parameters", {}), "summary": _records(summary),
                    "pareto_across_budgets": _records(verdicts),
                    "front_over_what_answers": _records(answer_front(frame)), "rows": _records(frame)}
        write_whole(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    else:  # a CSV for spreadsheets: formula-like cells are neutralised
        rows = (["" if value is None else value for value in map(plain_value, row)]
                for row in frame.itertuples(index=False))
        write_whole(path, spreadsheet_csv(list(frame.columns), rows))


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{key: plain_value(value) for key, value in row.items()} for row in frame.to_dict("records")]


def summary_table(summary: pd.DataFrame) -> str:
    rows = list(summary.itertuples())
    return text_table({
        "format": [row.format for row in rows],
        "lossless": ["yes" if row.lossless else "LOSSY" for row in rows],
        "bytes": [f"{row.bytes:,}" for row in rows],
        "tokens": [f"{row.tokens:,}" for row in rows],
        "grammar": [f"{row.grammar_tokens:,}" for row in rows],
        "round trip": ["ok" if row.round_trip else "FAILS" for row in rows],
        "traversal": [share(row.traversal_accuracy) for row in rows]})


def verdict_lines(verdicts: pd.DataFrame) -> list[str]:
    lines = []
    keys = [key for key in ("tokenizer", "ordering", "layout", "policy") if key in verdicts.columns]
    for group_key, group in verdicts.groupby(keys, sort=False):
        kept = ", ".join(group[~group["dominated"]]["format"])
        beaten = "; ".join(f"{row.format} (by {row.dominated_by})" for row in group[group["dominated"]].itertuples())
        lines.append(f"  {'/'.join(group_key)}: non-dominated {kept}" + (f"; dominated {beaten}" if beaten else ""))
    return lines


def answering_template(graph: Graph, seed_ids: tuple[str, ...]) -> Query:
    """The first registered template that binds to the seeds and has an answer on the graph (impact_owners first,
    the reference question); impact_owners itself, refused as having no answer, when none has."""
    names = [DEFAULT_QUERY, *(name for name in QUERIES.names() if name != DEFAULT_QUERY)]
    for name in names:
        try:
            bound = parse_query(name, seed_ids)
        except GraphContextError:
            continue
        if all(node in graph.node_by_id for node in bound.seeds) and has_answer(bound, bound.solve(graph)):
            return bound
    return parse_query(DEFAULT_QUERY, seed_ids)


def seeds_and_queries(graph: Graph, arguments: argparse.Namespace, out: TextIO | None = None
                      ) -> tuple[Seeds | None, list[Query]]:
    """The seeds and queries the arguments ask for, each printed as it was read, every one with an answer.

    --question is read by core.questions.reading (its seeds and its query; --query replaces the query);
    --seeds with --query binds the queries to them (without --query: the sample's own template, else
    impact_owners, named as the default); a newcomer's plain command takes the sample's catalogue entry. A query
    whose answer on the graph is empty measures nothing and is refused (core.queries.answerable).
    """
    sample = named_sample(arguments)
    seeds = choose_seeds(graph, arguments)
    if arguments.question is not None:
        if not arguments.question.strip():
            raise ParameterError("--question is empty", "--question", "ask a question that names nodes of the graph, "
                                 "or leave the option out")
        reading = read_question(graph, arguments.question)
        print(f"question {reading.sentence(graph)}", file=out)
        seeds = reading.seeds if reading.seeds.node_ids else None
        seed_ids = seeds.node_ids if seeds else ()
        queries = [parse_query(text, seed_ids) for text in arguments.query] if arguments.query else [reading.query]
    elif seeds is None and arguments.query is None:  # a newcomer's plain `sweep` or `sweep --graph SAMPLE`
        defaults = graph_defaults(graph, sample)
        seeds = seeds_from_ids(graph, list(defaults.seeds)) if defaults.seeds else None
        queries = [defaults.query]
        where = "the sample's catalogue entry" if sample is not None else "the graph"
        print(f"seeds and query from {where} (--seeds, --question or --query to change): "
              f"{defaults.query.question_on(graph)}", file=out)
    else:
        seed_ids = seeds.node_ids if seeds else ()
        if arguments.query is not None:
            queries = [parse_query(text, seed_ids) for text in arguments.query]
        elif sample is not None and sample.query_template:
            queries = [parse_query(sample.query_template, seed_ids)]
            print(f"query {sample.query_template} around the seeds (the sample's; --query or --question to change)",
                  file=out)
        else:
            queries = [answering_template(graph, seed_ids)]
            print(f"query {queries[0].name} around the seeds (the first template with an answer there; --query or "
                  "--question to change)", file=out)
    check_query_nodes(graph, queries)
    for bound in queries:
        require_answer(bound, graph)
    return seeds, queries


def run(arguments: argparse.Namespace) -> int:
    if arguments.output is not None:
        if arguments.output.suffix.lower() not in (".csv", ".json"):
            raise ParameterError(f"cannot write {arguments.output.name!r}", "--output",
                                 "name a .csv file (one row per cut) or a .json file (rows, summary and Pareto)")
        check_writable(arguments.output, "--output")  # before the sweep, not after it
    if arguments.cut_report is not None:
        check_writable(arguments.cut_report, "--cut-report")
    graph = graph_from_arguments(arguments)
    seeds, queries = seeds_and_queries(graph, arguments)
    choice = chosen_tokenizers(arguments)
    graph = filtered_graph(graph, arguments, queries, arguments.formats, choice.names[0])
    progress = None if arguments.no_progress else CountBar("sweep", "cut")
    spec = SweepSpec.from_names(graph, queries, seeds=seeds, format_names=arguments.formats,
                                ordering_names=arguments.orderings, layouts=arguments.layouts,
                                policy_names=arguments.policies, budgets=arguments.budgets,
                                tokenizer_name=choice.names[0], hops=arguments.hops, direction=arguments.direction,
                                radius=arguments.radius, shuffle_seed=arguments.shuffle_seed,
                                count_grammar=not arguments.no_grammar, marker=arguments.marker,
                                sections=arguments.sections, reader_name=choice.reader)
    bench = Workbench()
    try:
        if len(choice.names) == 1:
            frame = bench.sweep(spec, progress=progress, workers=arguments.workers, verify=arguments.verify_decode)
            verdicts = dominance_across_budgets(frame)
        else:  # one frame with a tokenizer column; formats compete only within a tokenizer
            frame = bench.sweep_over_tokenizers(spec, choice.names, progress=progress, workers=arguments.workers)
            verdicts = pareto_per_tokenizer(frame)
    finally:
        if progress is not None:
            progress.close()
    frame.attrs["parameters"]["graph_source"] = graph_parameters(arguments)
    frame.attrs["parameters"].update(choice.parameters())
    stage("measuring the complete renderings", arguments.no_progress)
    summary = pd.concat([rendering_summary(graph, queries, formats=arguments.formats, tokenizer=name)
                         for name in choice.names], ignore_index=True)
    print_verdict(frame, choice.names)
    print(f"graph: {len(graph.nodes)} nodes, {len(graph.edges)} edges, sha256 {graph.sha256[:16]}…, "
          f"{choice.describe()}")
    print(seeds.describe() if seeds else f"seeds from the queries: {', '.join(frame.attrs['parameters']['seeds'])}")
    for bound in queries:
        print(f"query {bound.label}: {bound.question_on(graph)}")
    print(frame.attrs["parameters"]["request_note"])
    for name, part in summary.groupby("tokenizer", sort=False):
        if len(choice.names) > 1:
            print(f"tokenizer {name}:")
        print(summary_table(part))
    if arguments.verbose:
        print("Front over what answers (each traversal accuracy above 0% a format reaches, from the smallest swept "
              "budget reaching it; the same rule as the dashboard's Pareto page):")
        front = answer_front(frame)
        print("\n".join(front_lines(front, [key for key in ("tokenizer", "ordering", "layout", "policy")
                                             if key in front.columns])))
        print("Pareto across budgets (a format is dominated if another is never worse and once better):")
        print("\n".join(verdict_lines(verdicts)))
    else:
        print(pareto_summary(verdicts))
    if arguments.output is None:
        print(f"{len(frame):,} cuts measured; --output results.csv (or .json) keeps them")
    else:
        stage(f"writing {arguments.output}", arguments.no_progress)
        write_results(arguments.output, frame, summary, verdicts)
        print(f"{len(frame)} cuts written to {arguments.output}")
    if arguments.cut_report is not None:
        write_cut_reports(arguments, graph, queries, frame.attrs["parameters"]["seeds"], list(choice.names))
    return 0


def write_cut_reports(arguments: argparse.Namespace, graph, queries, seeds: Sequence[str],
                      tokenizers: Sequence[str]) -> None:
    """--cut-report: every cut's kept and cut unit keys, evidence lost and what did not fit next, as JSON."""
    cuts = [dict(report, tokenizer=name) for name in tokenizers for report in sweep_cut_reports(
        graph, queries, seeds=seeds, formats=arguments.formats, orderings=arguments.orderings,
        layouts=arguments.layouts, policies=arguments.policies, budgets=arguments.budgets, tokenizer=name,
        direction=arguments.direction, radius=arguments.radius, shuffle_seed=arguments.shuffle_seed,
        count_grammar=not arguments.no_grammar, marker=arguments.marker, sections=arguments.sections)]
    document = {"graph_hash": graph.sha256, "queries": {query.label: query.question_on(graph) for query in queries},
                "cuts": cuts}
    write_whole(arguments.cut_report, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(cuts)} cut reports written to {arguments.cut_report}")


def print_verdict(frame: pd.DataFrame, tokenizer_names: Sequence[str]) -> None:
    """The best choice per budget, per tokenizer when several were swept: the first thing a sweep prints."""
    print("verdict: the best lossless choice at each budget, by the advisor's rule (traversal accuracy, then the "
          "smallest budget from which it answers, then fewer tokens; baseline orderings excluded, formats as good "
          "named beside it)")
    for name in tokenizer_names:
        part = frame[frame["tokenizer"] == name] if "tokenizer" in frame.columns else frame
        if len(tokenizer_names) > 1:
            print(f"tokenizer {name}:")
        print(verdict_table(best_per_budget(part)))


def add_seed_and_query_options(parser: argparse.ArgumentParser, title: str) -> argparse._ArgumentGroup:
    """--seeds or --question, and --query: shared by every command that cuts around seeds."""
    anchor = parser.add_argument_group(title)
    chosen = anchor.add_mutually_exclusive_group()
    chosen.add_argument("--seeds", metavar="ID,ID", help="seed node ids (comma-separated)")
    chosen.add_argument("--question", metavar="TEXT",
                        help="a question, read into its seeds and query (the reading is printed), e.g. \"What are "
                             "the prerequisites for Tensorrt?\"; --query then replaces the query it was read as")
    anchor.add_argument("--query", action="append", metavar="NAME[:PARAM=VALUE,...]",
                        help=f"a query template ({', '.join(QUERIES.names())}); node parameters not given come "
                             f"from the seeds in order, a list of nodes is written a+b+c; repeat for several "
                             f"(default {DEFAULT_QUERY})")
    return anchor


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "sweep", help="cut every format, ordering and policy at every budget: what survives, what still answers",
        description="Render the graph in each format and ordering, cut it at each token budget under the raw and "
                    "record policies, and measure every cut: exact tokens, parse, evidence survival, traversal "
                    "accuracy, candidate recall within k hops and D_k(S).")
    add_graph_options(parser)
    add_property_options(parser)
    anchor = add_seed_and_query_options(parser, "seeds and queries")
    anchor.add_argument("--hops", type=non_negative, default=2, help="k for candidate recall and D_k(S) (default 2)")
    anchor.add_argument("--direction", choices=DIRECTIONS, default="both",
                        help="edges followed for hop levels (default both)")
    anchor.add_argument("--radius", type=non_negative,
                        help="render only the units within this many hops of the seeds (default: the whole graph)")
    cuts = parser.add_argument_group("what to sweep")
    cuts.add_argument("--formats", type=names("format", FORMATS.names()), help="formats (default: all registered)")
    cuts.add_argument("--orderings", type=names("ordering", ORDERINGS.names() + ORDERINGS.ends_names()),
                      help="orderings (default: all; evidence_first is an oracle; a ranked ordering with +ends, "
                           "e.g. question_bm25+ends, puts its best units at both ends)")
    cuts.add_argument("--layouts", type=names("layout", LAYOUTS), default=list(LAYOUTS),
                      help="nodes_then_edges and/or interleaved (default both, where a format allows)")
    cuts.add_argument("--policies", type=names("policy", tuple(POLICIES.names())), default=list(DEFAULT_POLICIES),
                      help=f"budget policies: {', '.join(POLICIES.names())} (sections: node and edge sections with "
                           f"LightRAG's shares of the budget; density, knapsack, connected select units by relevance; "
                           f"default raw,record)")
    cuts.add_argument("--budgets", type=budgets, default=list(DEFAULT_BUDGETS), metavar="B,B,...",
                      help="token budgets (default 512,1024,...,65536)")
    cuts.add_argument("--shuffle-seed", type=int, default=0, help="seed of the shuffled ordering (default 0)")
    cuts.add_argument("--no-grammar", action="store_true", help="do not count the format's grammar in budgets")
    cuts.add_argument("--sections", type=section_shares, default=DEFAULT_SECTIONS, metavar="NODES,EDGES",
                      help="the sections policy's node and edge shares of the budget (e.g. 0.2,0.267, LightRAG's "
                           "6,000 and 8,000 of 30,000, the default) or whole token counts (e.g. 6000,8000)")
    cuts.add_argument("--marker", action="store_true", help='add a "[37 of 131 records shown]" line, counted')
    add_tokenizer_options(parser)
    parser.add_argument("--cut-report", type=Path, metavar="FILE",
                        help="also write every cut's report as JSON: kept and cut unit keys, evidence units lost, "
                             "the next unit that did not fit (and the budget it needs, for a prefix policy)")
    parser.add_argument("--output", type=Path,
                        help="write the cuts to results.csv (one row per cut) or results.json (rows, summary, "
                             "Pareto); without it nothing is written")
    parser.add_argument("--verbose", action="store_true",
                        help="also print the front over what answers and the Pareto verdict of every ordering, "
                             "layout and policy")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--workers", type=positive, default=None, metavar="N",
                        help=f"processes rendering and cutting in parallel (default: every core, {default_workers()} "
                             "here; 1 runs in this process); the rows are the same for any N")
    parser.add_argument("--verify-decode", action="store_true",
                        help="also decode every cut and check each metric against the one read from its kept "
                             "units; stops at the first cell that differs")
    parser.set_defaults(run=run)


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} workers; use 1 (in this process) or more")
    return value
