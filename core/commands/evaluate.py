"""`graph-context-lab evaluate`: ask a model (or a reference reader) about every budget cut, store and score the answers."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from core.budget.policies import POLICIES
from core.commands.graph_source import (
    add_graph_options,
    check_writable,
    graph_from_arguments,
    graph_parameters,
    non_negative,
    positive,
)
from core.commands.progress import CountBar
from core.commands.sweep import (
    DEFAULT_QUERY,
    add_seed_and_query_options,
    budgets,
    check_query_nodes,
    choose_seeds,
    names,
    parse_query,
)
from core.commands.text_table import text_table
from core.errors import ParameterError
from core.evaluate.store import DEFAULT_PATH, RunStore, check_store
from core.formats import FORMATS
from core.graph.hops import DIRECTIONS
from core.prompt.pricing import PriceTable, parse_price
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS
from core.tokens import TOKENIZERS

DEFAULT_BUDGETS = "512,1024,2048,4096,8192"  # the seed's budget list

if TYPE_CHECKING:
    from core.evaluate.run import Progress


def price_argument(text: str) -> PriceTable:
    try:
        return parse_price(text)
    except ParameterError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def progress_note(progress: Progress, currency: str) -> str:
    """What the progress bar shows beside the count: cached and failed requests, and the cost so far."""
    cost = f"{progress.cost:.4f} {currency}" + (f" (+{progress.cost_unknown} without usage)"
                                                 if progress.cost_unknown else "")
    return f"{progress.cached} cached · {progress.failed} failed · cost {cost}"


def summary_table(table) -> str:
    rows = list(table.itertuples(index=False))
    return text_table({
        "format": [row.format for row in rows],
        "ordering": [row.ordering for row in rows],
        "layout": [row.layout for row in rows],
        "policy": [row.policy for row in rows],
        "budget": [f"{row.budget_tokens:,}" for row in rows],
        "answers": [str(row.answered) for row in rows],
        "failed": [str(row.failed) for row in rows],
        "exact match [95% CI]": ["—" if row.answered == 0 else
                                 f"{row.exact_match:.2f} [{row.exact_match_low:.2f}–{row.exact_match_high:.2f}]"
                                 for row in rows],
        "traversal": ["—" if row.traversal_accuracy is None else f"{row.traversal_accuracy:.2f}" for row in rows],
        "tokens": [f"{row.measured_tokens:,.0f}" for row in rows],
        "cost": [f"{row.cost:.4f}" for row in rows],
        "latency ms": ["—" if row.latency_ms_median is None else f"{row.latency_ms_median:,.0f}" for row in rows]},
        left=("format", "ordering", "layout", "policy"))


def verdict_lines(table) -> list[str]:
    """The first lines: per budget, the cut a model answered best (exact match, then fewer tokens), with its
    interval; cuts with no answer (every request failed) are left out."""
    answered = table[table["answered"] > 0]
    if answered.empty:
        return ["verdict: no request was answered, so there is nothing to compare"]
    lines = ["verdict: the best exact match at each budget (then fewer tokens; Wilson 95% interval)"]
    for budget, part in answered.groupby("budget_tokens", sort=True):
        best = part.sort_values(["exact_match", "measured_tokens", "format", "ordering", "layout", "policy"],
                                ascending=[False, True, True, True, True, True], kind="stable").iloc[0]
        lines.append(f"  {int(budget):>7,}: {best['format']} / {best['ordering']} / {best['layout']} / "
                     f"{best['policy']}: exact match {best['exact_match']:.2f} "
                     f"[{best['exact_match_low']:.2f}–{best['exact_match_high']:.2f}] over "
                     f"{int(best['answered'])} answer(s), {best['measured_tokens']:,.0f} tokens")
    return lines


def run(arguments: argparse.Namespace) -> int:
    # Imported here: the client brings the openai package, which the other commands do not need.
    from core.analysis.answer_contexts import SweepOptions, sweep_contexts
    from core.analysis.answer_summary import summarise
    from core.evaluate.client import Endpoint
    from core.evaluate.run import RunSettings, evaluate

    check_store(arguments.store)
    if arguments.output:
        check_writable(arguments.output, "--output")
    graph = graph_from_arguments(arguments)
    seeds = choose_seeds(graph, arguments)
    queries = [parse_query(text, seeds.node_ids if seeds else ()) for text in (arguments.query or [DEFAULT_QUERY])]
    check_query_nodes(graph, queries)
    endpoint = Endpoint(arguments.base_url, arguments.model, arguments.api_key_env, arguments.temperature,
                        arguments.max_tokens, arguments.model_seed, arguments.timeout, arguments.retries,
                        arguments.token_limit_field)
    prices = arguments.price or PriceTable()
    settings = RunSettings(endpoint, arguments.trials, arguments.concurrency, arguments.encoding, prices,
                           arguments.question_names)
    options = SweepOptions(arguments.formats, arguments.orderings, arguments.layouts, arguments.policies,
                           arguments.budgets, arguments.encoding, arguments.direction, arguments.shuffle_seed,
                           not arguments.no_grammar, arguments.marker)
    contexts, frame = sweep_contexts(graph, queries, options, seeds=seeds)
    extra = {"graph_source": graph_parameters(arguments), "seeds": frame.attrs["parameters"]["seeds"],
             "queries": [bound.label for bound in queries], **options.recorded()}
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
        table = summarise(store.results(run_id), prices)
    print("\n".join(verdict_lines(table)))
    print(f"run {run_id}: {progress.done} requests, {progress.sent} sent, {progress.cached} cached, "
          f"{progress.failed} failed; stored in {arguments.store}")
    if arguments.verbose:
        print(summary_table(table))
    else:
        print("--verbose prints every cut: answers, failures, exact match with its interval, traversal accuracy, "
              "tokens, cost and latency")
    if arguments.output:
        if arguments.output.suffix == ".json":
            table.to_json(arguments.output, orient="records", indent=2)
        else:
            table.to_csv(arguments.output, index=False)
        print(f"summary written to {arguments.output}")
    if progress.failed:
        print(f"{progress.failed} request(s) failed (reasons in the store); run the same command again to retry "
              "them: answered requests are not sent again", file=sys.stderr)
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
    cuts.add_argument("--policies", type=names("policy", POLICIES), default=["record"],
                      help="raw and/or record (default record)")
    cuts.add_argument("--budgets", type=budgets, default=budgets(DEFAULT_BUDGETS), metavar="B,B,...",
                      help=f"token budgets (default {DEFAULT_BUDGETS}, the seed's list)")
    cuts.add_argument("--shuffle-seed", type=int, default=0, help="seed of the shuffled ordering (default 0)")
    cuts.add_argument("--no-grammar", action="store_true", help="do not count the format's grammar in budgets")
    cuts.add_argument("--marker", action="store_true", help='end a truncated context with "[K of N records shown]"')
    cuts.add_argument("--encoding", default="o200k_base", choices=TOKENIZERS.names(),
                      help="tokenizer for budgets and counts (default o200k_base)")
    model = parser.add_argument_group("endpoint and model")
    model.add_argument("--base-url", default="http://127.0.0.1:8765/v1",
                       help="OpenAI-compatible base URL (default the local reader server, http://127.0.0.1:8765/v1)")
    model.add_argument("--model", default="oracle", help="model name (default oracle, a reader-server model)")
    model.add_argument("--api-key-env", default="OPENAI_API_KEY",
                       help="environment variable holding the API key (default OPENAI_API_KEY); never stored")
    model.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default 0)")
    model.add_argument("--max-tokens", type=positive, default=512, help="maximum output tokens (default 512)")
    model.add_argument("--token-limit-field", choices=("max_tokens", "max_completion_tokens"), default="max_tokens",
                       help="request field for the output limit (some OpenAI models want max_completion_tokens)")
    model.add_argument("--model-seed", type=int, help="sampling seed sent with every request (default: none sent)")
    model.add_argument("--timeout", type=float, default=60.0, help="seconds per attempt (default 60)")
    model.add_argument("--retries", type=non_negative, default=3, help="retries on 429, 5xx and connection errors "
                                                                       "(default 3, exponential backoff)")
    model.add_argument("--trials", type=positive, default=1, help="repeated trials per context (default 1)")
    model.add_argument("--concurrency", type=positive, default=4, help="requests in flight at once (default 4)")
    model.add_argument("--price", type=price_argument, help="INPUT,OUTPUT prices per million tokens, e.g. 0.15,0.60 "
                                                         "(stored with the run; default 0,0)")
    output = parser.add_argument_group("storage")
    output.add_argument("--store", type=Path, default=DEFAULT_PATH, help=f"SQLite run store (default {DEFAULT_PATH})")
    output.add_argument("--verbose", action="store_true",
                        help="also print every cut's answers, failures, interval, traversal accuracy, tokens, cost "
                             "and latency")
    output.add_argument("--output", type=Path, help="also write the summary table as CSV, or JSON for a .json path")
    parser.set_defaults(run=run)
