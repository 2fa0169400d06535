"""`graph-context-lab evaluate`: ask a model (or a reference reader) about every budget cut, store and score the answers."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.budget import DEFAULT_POLICIES
from core.commands.graph_source import (
    add_graph_options,
    check_writable,
    graph_from_arguments,
    graph_parameters,
    non_negative,
    positive,
)
from core.commands.progress import CountBar
from core.commands.sweep import add_seed_and_query_options, budgets, names, seeds_and_queries
from core.commands.text_table import text_table
from core.commands.tokenizer_options import tokenizer_name
from core.errors import ParameterError
from core.evaluate.store import DEFAULT_PATH, RunStore, check_store
from core.formats import FORMATS
from core.graph.hops import DIRECTIONS
from core.io.whole_file import whole_file
from core.number_style import money, share, whole
from core.prompt.answers import ANSWER_FORMATS
from core.prompt.pricing import PriceTable, parse_price
from core.questions import SEEDINGS, generate, load_questions
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS
from core.tokens import MODELS

DEFAULT_BUDGETS = "512,1024,2048,4096,8192"  # the seed's budget list

@dataclass(frozen=True)
class EndpointDefaults:
    max_tokens: int
    timeout: float
    retries: int
    concurrency: int


REMOTE_DEFAULTS = EndpointDefaults(max_tokens=512, timeout=60.0, retries=3, concurrency=4)
# The bundled model answers one request at a time on this machine's CPU: a request waits behind the ones
# queued before it (so a long timeout), a retry would queue the same work again, and a second request in
# flight only waits. Its answers are a few identifiers: 128 tokens bound a constrained reply that rambles.
LOCAL_DEFAULTS = EndpointDefaults(max_tokens=128, timeout=600.0, retries=0, concurrency=1)

if TYPE_CHECKING:
    from core.evaluate.run import Progress


def price_argument(text: str) -> PriceTable:
    try:
        return parse_price(text)
    except ParameterError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def progress_note(progress: Progress, currency: str) -> str:
    """What the progress bar shows beside the count: cached and failed requests, and the cost so far."""
    cost = money(progress.cost, currency) + (f" (+{progress.cost_unknown:,} without usage)"
                                                 if progress.cost_unknown else "")
    return f"{progress.cached:,} cached · {progress.failed:,} failed · cost {cost}"


def summary_table(table) -> str:
    rows = list(table.itertuples(index=False))
    return text_table({
        "format": [row.format for row in rows],
        "ordering": [row.ordering for row in rows],
        "layout": [row.layout for row in rows],
        "policy": [row.policy for row in rows],
        "budget": [f"{row.budget_tokens:,}" for row in rows],
        "answers": [f"{row.answered:,}" for row in rows],
        "failed": [f"{row.failed:,}" for row in rows],
        "exact match [95% CI]": ["—" if row.answered == 0 else
                                 f"{share(row.exact_match)} [{share(row.exact_match_low)}–{share(row.exact_match_high)}]"
                                 for row in rows],
        "traversal": ["—" if row.traversal_accuracy is None else share(row.traversal_accuracy) for row in rows],
        "tokens": [whole(row.measured_tokens) for row in rows],
        "cost": [money(row.cost, "").strip() for row in rows],
        "latency ms": ["—" if row.latency_ms_median is None else f"{row.latency_ms_median:,.0f}" for row in rows]},
        left=("format", "ordering", "layout", "policy"))


def breakdown_table(table, columns: tuple[str, ...]) -> str:
    rows = list(table.itertuples(index=False))
    return text_table({
        **{name.replace("_", " "): ["—" if getattr(row, name) is None else str(getattr(row, name)) for row in rows]
           for name in columns},
        "answers": [str(row.answers) for row in rows],
        "exact match [95% CI]": [f"{row.exact_match:.2f} [{row.exact_match_low:.2f}–{row.exact_match_high:.2f}]"
                                 for row in rows],
        "evidence complete": ["—" if row.evidence_complete is None else f"{row.evidence_complete:.2f}"
                              for row in rows]}, left=tuple(name.replace("_", " ") for name in columns))


def sufficiency_table(table) -> str:
    rows = list(table.itertuples(index=False))
    return text_table({"format": [row.format for row in rows], "sufficiency": [row.sufficiency for row in rows],
                       "answers": [str(row.answers) for row in rows],
                       "correct": [str(row.correct) for row in rows], "wrong": [str(row.wrong) for row in rows],
                       "abstained": [str(row.abstained) for row in rows]}, left=("format", "sufficiency"))


def verdict_lines(table) -> list[str]:
    """The first lines: per budget, the cut a model answered best (exact match, then fewer tokens), with its
    interval, and the other formats whose exact match lies inside that interval (a tie, as the advisor's rule
    calls one). Cuts with no answer (every request failed) and baseline orderings (random, or reading the
    answer) are left out: a baseline is measured, never recommended."""
    baseline = {name: ORDERINGS.get(name).baseline for name in table["ordering"].unique() if name in ORDERINGS}
    if not (table["answered"] > 0).any():
        return ["verdict: no request was answered, so there is nothing to compare"]
    answered = table[(table["answered"] > 0) & ~table["ordering"].map(baseline).fillna(False).astype(bool)]
    if answered.empty:
        return ["verdict: only baseline orderings (random, or reading the answer) were answered; a baseline is "
                "measured, never recommended"]
    lines = ["verdict: the best exact match at each budget (then fewer tokens; Wilson 95% interval; baseline "
             "orderings excluded)"]
    for budget, part in answered.groupby("budget_tokens", sort=True):
        ranked = part.sort_values(["exact_match", "measured_tokens", "format", "ordering", "layout", "policy"],
                                  ascending=[False, True, True, True, True, True], kind="stable")
        best = ranked.iloc[0]
        if best["exact_match"] == 0:
            lines.append(f"  {int(budget):>7,}: no cut was answered exactly ({int(part['answered'].sum())} answer(s) "
                         f"over {len(part)} cut(s)), so there is no best one")
            continue
        others = ranked[ranked["format"] != best["format"]].groupby("format", sort=False).head(1)
        tied = others[others["exact_match"].between(best["exact_match_low"], best["exact_match_high"])]
        lines.append(f"  {int(budget):>7,}: {best['format']} / {best['ordering']} / {best['layout']} / "
                     f"{best['policy']}: exact match {best['exact_match']:.2f} "
                     f"[{best['exact_match_low']:.2f}–{best['exact_match_high']:.2f}] over "
                     f"{int(best['answered'])} answer(s), {best['measured_tokens']:,.0f} tokens"
                     + (f"; tied within the interval: {', '.join(tied['format'])}" if len(tied) else ""))
    return lines


def run(arguments: argparse.Namespace) -> int:
    # Imported here: the client brings the openai package, which the other commands do not need.
    from core.analysis.answer_contexts import SweepOptions
    from core.evaluate.client import Endpoint
    from core.evaluate.model_process import ModelProcess, ModelProcessSettings
    from core.evaluate.request_counters import endpoint_counter

    check_store(arguments.store)
    if arguments.output:
        check_writable(arguments.output, "--output")
    graph = graph_from_arguments(arguments)
    options = SweepOptions(arguments.formats, arguments.orderings, arguments.layouts, arguments.policies,
                           arguments.budgets, arguments.encoding, arguments.direction, arguments.shuffle_seed,
                           not arguments.no_grammar, arguments.marker)
    contexts, extra = planned_contexts(graph, arguments, options)
    with ExitStack() as stack:
        base_url, model, counter = arguments.base_url, arguments.model, None
        if arguments.bundled_model:
            print("starting the bundled model server…", file=sys.stderr, flush=True)
            server = stack.enter_context(ModelProcess(ModelProcessSettings(arguments.model_file,
                                                                           arguments.model_threads)))
            base_url, model, counter = server.url, server.model_name, server.request_counter()
            print(f"prompt tokens counted as the model reads them: {counter.name}", file=sys.stderr)
        else:
            counter, counted = endpoint_counter(model, arguments.encoding, arguments.model_family)
            print(counted, file=sys.stderr)
        local = LOCAL_DEFAULTS if arguments.bundled_model else REMOTE_DEFAULTS
        endpoint = Endpoint(base_url, model, arguments.api_key_env, arguments.temperature,
                            arguments.max_tokens or local.max_tokens, arguments.model_seed,
                            arguments.timeout or local.timeout,
                            local.retries if arguments.retries is None else arguments.retries,
                            arguments.token_limit_field, arguments.answer_format)
        arguments.concurrency = arguments.concurrency or local.concurrency
        return send_and_report(graph, contexts, endpoint, extra, arguments, counter)


def planned_contexts(graph, arguments: argparse.Namespace, options) -> tuple[list, dict]:
    """The contexts to ask about, from a question set (--questions / --generate) or from --query, and what the
    run records about where they came from."""
    from core.analysis.answer_contexts import question_contexts
    from core.workbench import Workbench

    recorded = {"graph_source": graph_parameters(arguments), **options.recorded()}
    if arguments.questions or arguments.generate:
        if arguments.query or arguments.seeds or arguments.question:
            raise ParameterError("a question set brings its own queries and seeds", "--query/--seeds/--question",
                                 "leave them out with --questions or --generate")
        questions = load_questions(arguments.questions, graph) if arguments.questions else \
            generate(graph, arguments.generate)
        contexts = question_contexts(graph, questions, options, seeding=arguments.seeding)
        return contexts, {**recorded, "questions": questions.source, "question_set": questions.name,
                          "seeding": arguments.seeding, "question_count": len(questions)}
    seeds, queries = seeds_and_queries(graph, arguments, out=sys.stderr)  # read, printed, each with an answer
    contexts, frame = Workbench().answer_contexts(graph, queries, options, seeds=seeds)
    return contexts, {**recorded, "seeds": frame.attrs["parameters"]["seeds"],
                      "queries": [bound.label for bound in queries]}


def send_and_report(graph, contexts: list, endpoint, extra: dict, arguments: argparse.Namespace, counter=None) -> int:
    from core.analysis.answer_summary import exact_match_by, sufficiency, summarise
    from core.evaluate.run import RunSettings, evaluate

    prices = arguments.price or PriceTable()
    settings = RunSettings(endpoint, arguments.trials, arguments.concurrency, arguments.encoding, prices,
                           arguments.question_names, counter)
    print(f"graph: {len(graph.nodes)} nodes, {len(graph.edges)} edges, sha256 {graph.sha256[:16]}…; "
          f"{len(contexts)} contexts x {arguments.trials} trial(s) to {endpoint.model} at {endpoint.base_url}",
          file=sys.stderr)
    with RunStore(arguments.store) as store:
        bar = CountBar("evaluate", "request")
        try:
            run_id, progress = evaluate(graph, contexts, settings, store, extra_settings=extra,
                                        progress=lambda counts: bar(counts.done, counts.total,
                                                                    progress_note(counts, prices.currency)))
        finally:
            bar.close()
        rows = store.results(run_id)
        table = summarise(rows, prices)
    print("\n".join(verdict_lines(table)))
    print(f"run {run_id}: {progress.done} requests, {progress.sent} sent, {progress.cached} cached, "
          f"{progress.failed} failed; stored in {arguments.store}")
    if arguments.verbose:
        print(summary_table(table))
    else:
        print("--verbose prints every cut: answers, failures, exact match with its interval, traversal accuracy, "
              "tokens, cost and latency")
    if arguments.questions or arguments.generate:
        for columns in (("format", "query_type"), ("format", "hop_depth")):
            print(f"\nexact match by {columns[1].replace('_', ' ')}:")
            print(breakdown_table(exact_match_by(rows, columns), columns))
    if any(row["evidence_complete"] is not None for row in rows):
        print("\nanswers by sufficiency (did the cut keep the whole evidence?):")
        print(sufficiency_table(sufficiency(rows)))
    if arguments.output:
        if arguments.output.suffix == ".json":
            with whole_file(arguments.output) as temporary:
                table.to_json(temporary, orient="records", indent=2)
        else:
            with whole_file(arguments.output) as temporary:
                table.to_csv(temporary, index=False)
        print(f"summary written to {arguments.output}")
    if progress.failed:
        print(f"{progress.failed} request(s) failed; the first: {progress.first_failure[:400]}; run the same command "
              "again to retry them (every reason is in the store; answered requests are not sent again)", file=sys.stderr)
        return 1
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "evaluate", help="ask a model about every budget cut; store, score and price the answers",
        description="Write each budget cut into the fixed prompt frame, send it to an OpenAI-compatible "
                    "chat-completions endpoint, and store every request and response in a resumable SQLite "
                    "run store: a re-run sends only what is missing. The default endpoint is the bundled "
                    "reader server (graph-context-lab serve-reader) with its oracle reader.")
    add_graph_options(parser)
    source = parser.add_argument_group("a question set (instead of --query)").add_mutually_exclusive_group()
    source.add_argument("--questions", type=Path, metavar="FILE",
                        help="a question file: CKG queries_*.jsonl, or the project's JSONL/CSV schema (as for suite)")
    source.add_argument("--generate", metavar="SPEC",
                        help="questions from a template, e.g. typed_neighbours:count=10,seed=0 (as for suite)")
    parser.add_argument("--seeding", choices=SEEDINGS, default="annotations",
                        help="with a question set: seeds from each record's annotations (default) or its text")
    anchor = add_seed_and_query_options(parser, "seeds and queries (as for sweep)")
    anchor.add_argument("--direction", choices=DIRECTIONS, default="both",
                        help="edges followed for hop levels (default both)")
    anchor.add_argument("--question-names", choices=("labels", "ids"), default="labels",
                        help="name nodes in the question by label where they have one (default), or by id")
    cuts = parser.add_argument_group("what to cut (as for sweep; each cut is one request per trial)")
    cuts.add_argument("--formats", type=names("format", FORMATS.names()), help="formats (default: all registered)")
    cuts.add_argument("--orderings", type=names("ordering", ORDERINGS.names()), default=["canonical"],
                      help="orderings (default canonical; evidence_first is an oracle)")
    cuts.add_argument("--layouts", type=names("layout", LAYOUTS), default=["nodes_then_edges"],
                      help="nodes_then_edges and/or interleaved (default nodes_then_edges)")
    cuts.add_argument("--policies", type=names("policy", DEFAULT_POLICIES), default=["record"],
                      help="raw and/or record (default record)")
    cuts.add_argument("--budgets", type=budgets, default=budgets(DEFAULT_BUDGETS), metavar="B,B,...",
                      help=f"token budgets (default {DEFAULT_BUDGETS}, the seed's list)")
    cuts.add_argument("--shuffle-seed", type=int, default=0, help="seed of the shuffled ordering (default 0)")
    cuts.add_argument("--no-grammar", action="store_true", help="do not count the format's grammar in budgets")
    cuts.add_argument("--marker", action="store_true", help='end a truncated context with "[K of N records shown]"')
    cuts.add_argument("--encoding", default="o200k_base", type=tokenizer_name, metavar="NAME",
                      help="tokenizer for budgets and counts (default o200k_base)")
    model = parser.add_argument_group("endpoint and model")
    model.add_argument("--bundled-model", action="store_true",
                       help="start the bundled SmolLM2-135M-Instruct (or --model-file) for this run and ask it; "
                            "--base-url and --model are then those of the started server")
    model.add_argument("--model-file", type=Path, metavar="GGUF", help="with --bundled-model: serve this GGUF instead")
    model.add_argument("--model-threads", type=positive, default=1,
                       help="with --bundled-model: CPU threads of the server (default 1)")
    model.add_argument("--answer-format", choices=ANSWER_FORMATS, default="json_schema",
                       help="json_schema (default): each request carries its answer schema as constrained output "
                            "(response_format); free: no response_format, the model writes what it will")
    model.add_argument("--base-url", default="http://127.0.0.1:8765/v1",
                       help="OpenAI-compatible base URL (default the local reader server, http://127.0.0.1:8765/v1)")
    model.add_argument("--model", default="oracle", help="model name (default oracle, a reader-server model)")
    model.add_argument("--model-family", choices=MODELS.names(), metavar="NAME",
                       help="the family of the endpoint's model, whose tokenizer and chat template count each "
                            f"request's prompt tokens ({', '.join(MODELS.names())}); without it: --encoding gguf:PATH's "
                            "file, the bundled model's by its name (serve-model), or --model when it names a family")
    model.add_argument("--api-key-env", default="OPENAI_API_KEY",
                       help="environment variable holding the API key (default OPENAI_API_KEY); never stored")
    model.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default 0)")
    model.add_argument("--max-tokens", type=positive,
                       help="maximum output tokens (default 512; 128 with --bundled-model, whose answers are short "
                            "and which writes ~20 tokens/s on a busy CPU)")
    model.add_argument("--token-limit-field", choices=("max_tokens", "max_completion_tokens"), default="max_tokens",
                       help="request field for the output limit (some OpenAI models want max_completion_tokens)")
    model.add_argument("--model-seed", type=int, default=0,
                       help="sampling seed sent with every request (default 0; with temperature 0 answers repeat)")
    model.add_argument("--timeout", type=float, help="seconds per attempt (default 60; 600 with --bundled-model)")
    model.add_argument("--retries", type=non_negative, help="retries on 429, 5xx and connection errors "
                                                            "(default 3, exponential backoff; 0 with --bundled-model)")
    model.add_argument("--trials", type=positive, default=1, help="repeated trials per context (default 1)")
    model.add_argument("--concurrency", type=positive,
                       help="requests in flight at once (default 4; 1 with --bundled-model, which has one slot)")
    model.add_argument("--price", type=price_argument, help="INPUT,OUTPUT prices per million tokens, e.g. 0.15,0.60 "
                                                         "(stored with the run; default 0,0)")
    output = parser.add_argument_group("storage")
    output.add_argument("--store", type=Path, default=DEFAULT_PATH, help=f"SQLite run store (default {DEFAULT_PATH})")
    output.add_argument("--verbose", action="store_true",
                        help="also print every cut's answers, failures, interval, traversal accuracy, tokens, cost "
                             "and latency")
    output.add_argument("--output", type=Path, help="also write the summary table as CSV, or JSON for a .json path")
    parser.set_defaults(run=run)
