"""`graph-context-lab suite`: a whole question set × formats × orderings × policies × budgets, aggregated.

Questions come from a file (`--questions`: a CKG query file, or the project's JSONL/CSV schema), from
a template spec (`--generate`), or, for a sample that ships one, the sample's own set. Tasks run on
the local worker pool (default) or on Ray (`--engine ray`, `--ray-address` for an existing cluster).
A question whose answer on the graph is empty is left out of every figure, counted in the headline ("8 of 10
questions; 2 have no answer on this graph, left out") and listed with the reason.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from core.analysis.suite import SuiteResult, settings_for, unseeded_questions
from core.analysis.suite_aggregates import aggregate, breakdown, pareto_across_budgets, smallest_budgets
from core.budget import DEFAULT_POLICIES, POLICIES
from core.commands.graph_source import (
    add_graph_options,
    check_writable,
    graph_from_arguments,
    graph_parameters,
    non_negative,
    positive,
)
from core.commands.progress import CountBar
from core.commands.sweep import _records, budgets, names, verdict_lines
from core.commands.text_table import text_table
from core.commands.tokenizer_options import add_tokenizer_options, chosen_tokenizers
from core.commands.verdict import best_per_budget, pareto_summary, stage, verdict_table
from core.errors import ParameterError
from core.execution.engine import ENGINES
from core.execution.ray_address import check_ray_address
from core.formats import FORMATS
from core.graph.hops import DIRECTIONS
from core.graph.model import Graph
from core.io.samples import get_sample, sample_names
from core.io.spreadsheet import spreadsheet_csv
from core.io.whole_file import whole_file, write_whole
from core.questions import SEEDINGS, QuestionSet, generate, load_questions
from core.questions.own_schema import READ_AS
from core.reports.exports import plain_value
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS
from core.specs import DEFAULT_BUDGETS
from core.workbench import Workbench

OUTPUTS = (".csv", ".json", ".parquet")


def question_set(graph: Graph, arguments: argparse.Namespace) -> QuestionSet:
    if arguments.questions:
        return load_questions(arguments.questions, graph)
    if arguments.generate:
        return generate(graph, arguments.generate)
    sample = get_sample(arguments.graph) if arguments.graph in sample_names() else None
    if sample is not None and sample.queries_path is not None:
        return load_questions(sample.queries_path, graph)
    raise ParameterError("no questions: give a question file or a template spec", "suite",
                         "add --questions FILE (CKG, JSONL or CSV) or --generate SPEC (e.g. impact:type=database); "
                         "the nvidia-jetson sample ships its own set")


def write_output(path: Path, result: SuiteResult, table: pd.DataFrame) -> None:
    rows = result.rows
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        with whole_file(path) as temporary:
            rows.to_parquet(temporary, index=False)
    elif suffix == ".json":
        document = {"parameters": rows.attrs.get("parameters", {}), "questions": _records(result.questions),
                    "left_out": _records(result.left_out),
                    "aggregate": _records(table), "by_query_type": _records(breakdown(rows, "query_type")),
                    "by_hop_depth": _records(breakdown(rows, "hop_depth")),
                    "smallest_budgets": _records(smallest_budgets(table)),
                    "pareto_across_budgets": _records(pareto_across_budgets(rows)), "rows": _records(rows)}
        write_whole(path, json.dumps(document, ensure_ascii=False) + "\n")
    else:
        cells = (["" if value is None else value for value in map(plain_value, row)] for row in rows.itertuples(index=False))
        write_whole(path, spreadsheet_csv(list(rows.columns), cells))


def _percent(value: float) -> str:
    return "   -" if pd.isna(value) else f"{value * 100:4.0f}"


def aggregate_lines(table: pd.DataFrame) -> list[str]:
    """One line per (seeding, format, ordering, layout, policy): accuracy % at each budget, 90%/100% budgets."""
    budget_list = sorted(table["budget"].unique())
    reached = smallest_budgets(table).set_index(["seeding", "format", "ordering", "layout", "policy"])
    keys = ["seeding", "format", "ordering", "layout", "policy"]
    columns: dict[str, list[str]] = {name: [] for name in [*keys, "n", *map(str, budget_list), "B@90%", "B@100%"]}
    for key, curve in table.groupby(keys, sort=False):
        accuracy = dict(zip(curve["budget"], curve["traversal_accuracy"]))
        found = reached.loc[key]
        cells = [*map(str, key), str(int(curve["questions"].max())),
                 *(_percent(accuracy.get(budget, float("nan"))) for budget in budget_list),
                 _budget(found["budget_90"]), _budget(found["budget_100"])]
        for name, cell in zip(columns, cells):
            columns[name].append(cell)
    return text_table(columns, left=keys).split("\n")


def _budget(value: float) -> str:
    return "never" if pd.isna(value) else f"{int(value):,}"


def breakdown_lines(rows: pd.DataFrame, column: str, title: str) -> list[str]:
    """Accuracy % per budget by query type or hop depth, per seeding and format, on the first curve shown."""
    first = rows.iloc[0]
    chosen = rows[(rows["ordering"] == first["ordering"]) & (rows["layout"] == first["layout"])
                  & (rows["policy"] == first["policy"])]
    table = breakdown(chosen, column)
    budget_list = sorted(table["budget"].unique())
    columns: dict[str, list[str]] = {name: [] for name in ["seeding", "format", title, "n", *map(str, budget_list)]}
    for key, part in table.groupby(["seeding", "format", column], sort=False, dropna=False):
        accuracy = dict(zip(part["budget"], part["traversal_accuracy"]))
        cells = [*map(str, key), str(int(part["questions"].max())),
                 *(_percent(accuracy.get(budget, float("nan"))) for budget in budget_list)]
        for name, cell in zip(columns, cells):
            columns[name].append(cell)
    heading = (f"by {title} (ordering {first['ordering']}, layout {first['layout']}, policy {first['policy']}; "
               "accuracy % at each budget, n questions):")
    return [heading, *text_table(columns, left=("seeding", "format", title)).split("\n")]


def run(arguments: argparse.Namespace) -> int:
    if arguments.output is not None:
        if arguments.output.suffix.lower() not in OUTPUTS:
            raise ParameterError(f"cannot write {arguments.output.name!r}", "--output",
                                 "name a .csv, .json or .parquet file")
        check_writable(arguments.output, "--output")  # before the suite, not after it
    if arguments.ray_address and arguments.engine != "ray":
        raise ParameterError("--ray-address needs --engine ray", "--ray-address", "add --engine ray")
    if arguments.ray_address:
        check_ray_address(arguments.ray_address)  # before any work: Ray itself would wait for ever
    graph = graph_from_arguments(arguments)
    questions = question_set(graph, arguments)
    choice = chosen_tokenizers(arguments)
    results = [run_one(graph, questions, arguments, tokenizer) for tokenizer in choice.names]
    # One table for every tokenizer: its rows carry a tokenizer column, and aggregates group by it.
    result = results[0] if len(results) == 1 else SuiteResult(
        pd.concat([each.rows for each in results], ignore_index=True), results[0].questions, results[0].settings,
        sum(each.task_cpu_seconds for each in results), results[0].left_out)
    result.rows.attrs["parameters"] = {**results[0].rows.attrs["parameters"], **choice.parameters(),
                                       "graph_source": graph_parameters(arguments)}
    stage(f"aggregating {len(result.rows):,} rows", arguments.no_progress)
    table = aggregate(result.rows)
    print_headline(table, results[0].settings.seedings, result.headline, result.left_out)
    print(f"graph: {len(graph.nodes)} nodes, {len(graph.edges)} edges, sha256 {graph.sha256[:16]}…; "
          f"questions: {len(questions)} ({questions.source}); engine {arguments.engine}; {choice.describe()}")
    checks = result.questions["ground_truth"].value_counts()
    print("recorded ground truth: " + ", ".join(f"{count} {status}" for status, count in checks.items()))
    for row in result.questions[result.questions["ground_truth"].isin(["tie", "differs"])].itertuples():
        print(f"  {row.ground_truth}: {row.question_id}: {row.ground_truth_detail}")
    print_readings(questions)
    for seeding in results[0].settings.seedings:
        unseeded = unseeded_questions(result.questions, seeding)
        print(f"seeds from {seeding}: {len(result.questions) - len(unseeded)} questions seeded, {len(unseeded)} name no node"
              + (f" ({', '.join(unseeded['question_id'][:10])}{'…' if len(unseeded) > 10 else ''})"
                 if len(unseeded) else ""))
    if arguments.verbose:
        for each in results:
            if len(results) > 1:
                print(f"== tokenizer {each.settings.tokenizer} ==")
            print_tables(each)
    else:
        print(pareto_summary(pareto_across_budgets(result.rows)))
        print("--verbose prints accuracy per budget for every choice, the Pareto verdicts and the breakdowns by "
              "query type and hop depth")
    if arguments.output is None:
        print(f"{len(result.rows):,} rows measured; --output results.csv (.json with the aggregates, or .parquet) "
              "keeps them")
    else:
        stage(f"writing {arguments.output}", arguments.no_progress)
        write_output(arguments.output, result, table)
        print(f"{len(result.rows):,} rows written to {arguments.output}")
    return 0


def print_readings(questions: QuestionSet, shown: int = 10) -> None:
    """How the questions given by their text alone (no `query` in the file) were read, the first `shown`."""
    readings = [(question.id, dict(question.metadata)[READ_AS]) for question in questions
                if READ_AS in dict(question.metadata)]
    if not readings:
        return
    print(f"read from their text alone: {len(readings)} question{'' if len(readings) == 1 else 's'}")
    for question_id, reading in readings[:shown]:
        print(f"  {question_id}: {reading}")
    if len(readings) > shown:
        print(f"  … and {len(readings) - shown:,} more (the output file's questions keep every reading)")


def print_headline(table: pd.DataFrame, seedings, counted: str, left_out: pd.DataFrame | None = None) -> None:
    """The suite's headline, first: per tokenizer and seeding, the best choice at each budget with its interval.
    `counted` says how many questions were measured (`SuiteResult.headline`); each left out is listed with why."""
    print(f"headline: the best lossless choice at each budget over the question set ({counted}; "
          "traversal accuracy with its Wilson 95% interval; baseline orderings excluded)")
    for row in (left_out if left_out is not None else pd.DataFrame()).itertuples():
        print(f"  left out: {row.question_id}: {row.reason}")
    for (tokenizer, seeding), part in table.groupby(["tokenizer", "seeding"], sort=False):
        print(f"{tokenizer}, seeds from {seeding}:")
        print(verdict_table(best_per_budget(part, tokens_column="mean_tokens")))


def run_one(graph: Graph, questions: QuestionSet, arguments: argparse.Namespace, tokenizer: str) -> SuiteResult:
    """The suite with one tokenizer, behind a progress bar."""
    settings = settings_for(arguments.formats, arguments.orderings, layouts=arguments.layouts,
                            policies=arguments.policies, budgets=arguments.budgets, seedings=arguments.seedings,
                            tokenizer=tokenizer, hops=arguments.hops, direction=arguments.direction,
                            shuffle_seed=arguments.shuffle_seed, count_grammar=not arguments.no_grammar)
    bar = None if arguments.no_progress else CountBar(f"suite ({tokenizer})", "task")

    def progress(done: int, total: int, _: str) -> None:  # the task's label would flicker: count only
        if bar is not None:
            bar(done, total)
    try:
        return Workbench().suite(graph, questions, settings, engine=arguments.engine, workers=arguments.workers,
                                 ray_address=arguments.ray_address, progress=progress)
    finally:
        if bar is not None:
            bar.close()


def print_tables(result: SuiteResult) -> None:
    """Accuracy per budget with the 90%/100% budgets, the Pareto verdicts and the breakdowns of one tokenizer."""
    print("traversal accuracy % per budget (Wilson 95% intervals in the output file); B@90%/B@100%: the smallest "
          "budget answering 90% / all questions:")
    print("\n".join(aggregate_lines(aggregate(result.rows))))
    verdicts = pareto_across_budgets(result.rows).drop(columns="tokenizer")  # one tokenizer per table
    print("Pareto across budgets on the aggregate (a format is dominated if another is never worse and once better):")
    for seeding, part in verdicts.groupby("seeding", sort=False):
        print("\n".join(f"  seeds from {seeding}, {line.strip()}" for line in verdict_lines(part)))
    print("\n".join(breakdown_lines(result.rows, "query_type", "query type")))
    print("\n".join(breakdown_lines(result.rows, "hop_depth", "hop depth")))


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "suite", help="run a question set (CKG file, own JSONL/CSV, or generated) over formats and budgets",
        description="Cut every format and ordering at every budget for every question of a set, with seeds "
                    "from the question text and from the annotations; print the best choice per budget with its "
                    "Wilson interval first, and with --verbose accuracy per budget with the budgets that answer "
                    "90%% and 100%% of the questions, and the breakdown by query type and hop depth.")
    add_graph_options(parser)
    source = parser.add_argument_group("questions").add_mutually_exclusive_group()
    source.add_argument("--questions", type=Path, metavar="FILE",
                        help="a CKG queries_*.jsonl file, or the project's JSONL/CSV question schema (docs: how-to, your own "
                             "questions)")
    source.add_argument("--generate", metavar="SPEC",
                        help="questions from a template, e.g. impact:type=database or "
                             "t3_prerequisite_path:count=50,distance=1-5,seed=7")
    cuts = parser.add_argument_group("what to sweep")
    cuts.add_argument("--formats", type=names("format", FORMATS.names()), help="formats (default: all registered)")
    cuts.add_argument("--orderings", type=names("ordering", ORDERINGS.names()), help="orderings (default: all)")
    cuts.add_argument("--layouts", type=names("layout", LAYOUTS), default=list(LAYOUTS), help="default both")
    cuts.add_argument("--policies", type=names("policy", POLICIES.names()), default=list(DEFAULT_POLICIES),
                      help=f"budget policies: {', '.join(POLICIES.names())} (default raw,record)")
    cuts.add_argument("--budgets", type=budgets, default=list(DEFAULT_BUDGETS), metavar="B,B,...",
                      help="token budgets (default 512,1024,...,65536)")
    cuts.add_argument("--seedings", type=names("seeding", SEEDINGS), default=list(SEEDINGS),
                      help="seeds from the question text and/or the annotations (default both)")
    cuts.add_argument("--hops", type=non_negative, default=2, help="k for candidate recall and D_k(S) (default 2)")
    cuts.add_argument("--direction", choices=DIRECTIONS, default="both", help="edges followed for hop levels")
    cuts.add_argument("--shuffle-seed", type=int, default=0, help="seed of the shuffled ordering (default 0)")
    cuts.add_argument("--no-grammar", action="store_true", help="do not count the format's grammar in budgets")
    add_tokenizer_options(parser)
    engine = parser.add_argument_group("where it runs")
    engine.add_argument("--engine", choices=ENGINES, default="local",
                        help="local: a process pool on this machine (default); ray: Ray tasks")
    engine.add_argument("--workers", type=positive,
                        help="local processes (default: the machine's cores; 1 = in this process), or the CPUs "
                             "of a Ray instance started for the run")
    engine.add_argument("--ray-address", metavar="ADDR",
                        help="an existing Ray cluster (host:port or ray://host:10001); without it --engine ray "
                             "starts a local instance for the run and shuts it down after")
    parser.add_argument("--output", type=Path,
                        help="write results.csv (one row per question and cut), results.json (rows, aggregates, "
                             "breakdowns, Pareto) or results.parquet (rows); without it nothing is written")
    parser.add_argument("--verbose", action="store_true",
                        help="also print accuracy per budget for every choice, the Pareto verdicts and the "
                             "breakdowns by query type and hop depth")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(run=run)
