"""`graph-context-lab advise`: the lossless format, ordering (no oracle) and policy to use, the runner-up and why."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.analysis.advisor import Advice, AdviceSettings, advise_answers
from core.analysis.cost import DEFAULT_MODEL
from core.budget import DEFAULT_POLICIES, POLICIES
from core.commands.graph_source import add_graph_options, graph_from_arguments
from core.commands.progress import CountBar
from core.commands.property_options import add_property_options, filtered_graph
from core.commands.sweep import add_seed_and_query_options, budgets, names, seeds_and_queries
from core.commands.tokenizer_options import add_tokenizer_options, chosen_tokenizers
from core.errors import ParameterError
from core.evaluate.store import DEFAULT_PATH, RunStore, check_store
from core.formats import FORMATS
from core.io.whole_file import write_whole
from core.number_style import money, share, signed_whole, whole
from core.questions import generate, load_questions
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS
from core.workbench import Workbench


def _figures(choice) -> str:
    """A choice's figures; at accuracy 0 no "reached from" (a budget that reaches 0% says nothing)."""
    low, high = choice.interval
    used = "" if round(choice.reach_tokens) == choice.reach_budget else f" ({whole(choice.reach_tokens)} used there)"
    reached = "" if choice.traversal_accuracy <= 0 else f", reached from {choice.reach_budget:,} tokens{used}"
    return (f"accuracy {share(choice.traversal_accuracy)} ({choice.correct:,} of {choice.questions:,}, 95% interval "
            f"{share(low)}-{share(high)}){reached}, evidence survival {share(choice.evidence_survival)}, "
            f"{whole(choice.budgeted_tokens)} tokens")


def advice_lines(advice: Advice) -> list[str]:
    best, runner = advice.best, advice.runner_up
    plural = "s" if advice.questions != 1 else ""
    where = f"at {advice.budget:,} tokens ({advice.tokenizer}, {advice.questions:,} question{plural}):"
    if not advice.answers:  # no "best" at 0%: the headline says nothing answers, and from which budget something does
        return _nothing_lines(advice, where)
    lines = [where, f"  best:      {best.name}: {_figures(best)}"]
    if runner is not None:
        lines.append(f"  runner-up: {runner.name}: {_figures(runner)}")
        lines.append(f"  margin:    {signed_whole(100 * (advice.accuracy_margin or 0.0))} percentage points of "
                     f"accuracy, {signed_whole(advice.token_margin or 0.0)} tokens"
                     + ("; tied within noise" if advice.tied else ""))
    lines.extend(f"  baseline:  {choice.name} (never picked): {_figures(choice)}" for choice in advice.baselines)
    lines.append(f"  why:       {advice.reason}")
    return lines + _closing_lines(advice, (best, runner))


def _nothing_lines(advice: Advice, where: str) -> list[str]:
    lines = [f"{where} {advice.nothing_answers}"]
    lines.extend(f"  most evidence kept: {choice.name}: {_figures(choice)}" for choice in advice.most_evidence)
    lines.extend(f"  baseline:  {choice.name} (never picked): {_figures(choice)}" for choice in advice.baselines)
    lines.append(f"  why:       {advice.reason}")
    return lines + _closing_lines(advice, advice.most_evidence)


def _closing_lines(advice: Advice, priced) -> list[str]:
    lines = []
    for choice in priced:
        if choice is not None and choice.cost is not None:
            lines.append(f"  cost of {choice.format}: {money(choice.cost.dollars)} per question, "
                         f"{money(choice.cost.dollars_cached)} with a warm prompt cache "
                         f"({choice.cost.input_tokens:,} input tokens, {choice.cost.cacheable_tokens:,} cacheable)")
    if advice.price_note:
        lines.append(f"  prices:    {advice.price_note}")
    if advice.room_note:
        lines.append(f"  request:   {advice.room_note}")
    lines.extend(f"  warning:   {warning}" for warning in advice.warnings)
    return lines


def advice_document(advice: Advice) -> dict:
    def choice(value):
        if value is None:
            return None
        figures = {key: getattr(value, key) for key in ("format", "ordering", "layout", "policy", "traversal_accuracy",
                                                       "correct", "questions", "reach_budget", "reach_tokens",
                                                       "evidence_survival", "budgeted_tokens", "evidence_budget",
                                                       "baseline")}
        figures["interval"] = list(value.interval)
        if value.cost is not None:
            figures["cost"] = {"dollars": value.cost.dollars, "dollars_cached": value.cost.dollars_cached,
                               "input_tokens": value.cost.input_tokens, "cacheable_tokens": value.cost.cacheable_tokens}
        return figures
    answers = advice.answers  # when nothing answers there is no best nor runner-up: the most evidence kept instead
    return {"budget": advice.budget, "tokenizer": advice.tokenizer, "questions": advice.questions,
            "answers": answers, "nothing_answers": advice.nothing_answers or None,
            "smallest_answering_budget": advice.smallest_answering_budget,
            "answering": [{"choice": item.choice, "budget": item.budget, "exact": item.exact}
                          for item in advice.answering],
            "most_evidence_kept": [choice(value) for value in advice.most_evidence],
            "best": choice(advice.best) if answers else None,
            "runner_up": choice(advice.runner_up) if answers else None,
            "accuracy_margin": advice.accuracy_margin, "token_margin": advice.token_margin, "tied": advice.tied,
            "questions_to_separate": advice.questions_to_separate,
            "baselines": [choice(value) for value in advice.baselines], "reason": advice.reason,
            "warnings": list(advice.warnings), "prices": advice.price_note, "layer": advice.layer,
            "request_room": advice.room_note,
            "picks": json.loads(advice.picks.to_json(orient="records"))}


def run(arguments: argparse.Namespace) -> int:
    if arguments.from_run:
        return advise_from_run(arguments)
    graph = graph_from_arguments(arguments)
    choice = chosen_tokenizers(arguments)
    settings = AdviceSettings(budgets=tuple(arguments.budgets), budget=arguments.budget,
                              tokenizers=choice.names, formats=arguments.formats, reader=choice.reader,
                              orderings=arguments.orderings, layouts=tuple(arguments.layouts),
                              policies=tuple(arguments.policies), model=arguments.price_model,
                              output_tokens=arguments.output_tokens)
    progress = None if arguments.no_progress else CountBar("advise", "task" if arguments.questions or
                                                          arguments.generate else "cut")
    try:
        if arguments.questions or arguments.generate:
            questions = load_questions(arguments.questions, graph) if arguments.questions else \
                generate(graph, arguments.generate)
            graph = filtered_graph(graph, arguments, [question.query for question in questions.questions], settings.formats,
                                   settings.tokenizers[0])
            advice = Workbench().advise_set(graph, questions, settings, progress=progress)
        else:
            seeds, queries = seeds_and_queries(graph, arguments)  # a sample's own defaults when none are given
            graph = filtered_graph(graph, arguments, queries, settings.formats, settings.tokenizers[0])
            seed_ids = seeds.node_ids if seeds else ()
            if len(queries) > 1 and not seed_ids:
                raise ParameterError("several queries need shared seeds", "--query",
                                     "give --seeds or --question, or a question set with --questions")
            advice = Workbench().advise(graph, queries, settings, seeds=seed_ids or None, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    print("\n".join(advice_lines(advice)))
    if arguments.output:
        write_whole(arguments.output, json.dumps(advice_document(advice), indent=1, ensure_ascii=False) + "\n")
        print(f"advice written to {arguments.output}")
    return 0


def advise_from_run(arguments: argparse.Namespace) -> int:
    """--from-run: the same ranking over a stored run's scored answers (the model's layer, not the traversal's)."""
    check_store(arguments.store)
    with RunStore(arguments.store) as store:
        if store.run(arguments.from_run) is None:
            raise ParameterError(f"no run {arguments.from_run!r} in {arguments.store}", "--from-run",
                                 "name a run id the store holds (graph-context-lab evaluate prints it)")
        results = store.results(arguments.from_run)
    settings = AdviceSettings(budget=arguments.budget, formats=arguments.formats, orderings=arguments.orderings)
    advice = advise_answers(results, settings, arguments.from_run)
    print("\n".join(advice_lines(advice)))
    if arguments.output:
        write_whole(arguments.output, json.dumps(advice_document(advice), indent=1, ensure_ascii=False) + "\n")
        print(f"advice written to {arguments.output}")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "advise", help="name the best lossless format, ordering and policy at a budget, with the runner-up, the "
                       "baselines and why",
        description="Sweep every lossless format under every ordering, rank them at the budget by traversal "
                    "accuracy (with its 95%% interval), then the smallest budget at which that accuracy is reached, "
                    "then tokens; random and oracle orderings are baselines, shown and never picked; say 'tied "
                    "within noise' when the question set cannot separate the pick from the runner-up; warn when "
                    "the choice changes with the budget or tokenizer.")
    add_graph_options(parser)
    add_property_options(parser)
    add_seed_and_query_options(parser, "seeds and queries (one question)")
    questions = parser.add_argument_group("or a question set").add_mutually_exclusive_group()
    questions.add_argument("--questions", type=Path, metavar="FILE", help="a CKG query file or the project's JSONL/CSV")
    questions.add_argument("--generate", metavar="SPEC", help="questions from a template, e.g. impact:type=database")
    cuts = parser.add_argument_group("what to compare")
    cuts.add_argument("--budgets", type=budgets, default=[1024], metavar="B,B,...",
                      help="budgets to compare (default 1024); the advice warns when the choice changes across them")
    cuts.add_argument("--budget", type=int, help="the budget the advice is for, added to --budgets (default: the smallest of --budgets)")
    cuts.add_argument("--formats", type=names("format", [n for n in FORMATS.names() if FORMATS.get(n).lossless]),
                      help="lossless formats (default: all)")
    cuts.add_argument("--orderings", type=names("ordering", ORDERINGS.names() + ORDERINGS.ends_names()),
                      help="orderings (default: all of them, without +ends); baselines (shuffled, evidence_first) "
                           "are shown beside the pick, never picked")
    cuts.add_argument("--layouts", type=names("layout", LAYOUTS), default=list(LAYOUTS),
                      help="nodes_then_edges and/or interleaved (default both, where a format allows)")
    cuts.add_argument("--policies", type=names("policy", tuple(POLICIES.names())), default=list(DEFAULT_POLICIES),
                      help=f"budget policies: {', '.join(POLICIES.names())} (default {','.join(DEFAULT_POLICIES)})")
    add_tokenizer_options(parser)
    cost = parser.add_argument_group("cost")
    cost.add_argument("--price-model", metavar="NAME", help=f"price per question from the bundled dated table "
                                                            f"(tokencost), e.g. {DEFAULT_MODEL}")
    cost.add_argument("--output-tokens", type=int, default=0, help="answer tokens to price (default 0: input only)")
    stored = parser.add_argument_group("or a stored run's answers")
    stored.add_argument("--from-run", metavar="RUN_ID", help="rank by the model's scored answers of this run "
                                                              "(graph-context-lab evaluate) instead of traversal")
    stored.add_argument("--store", type=Path, default=DEFAULT_PATH, help=f"SQLite run store (default {DEFAULT_PATH})")
    parser.add_argument("--output", type=Path, help="write the advice as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(run=run)
