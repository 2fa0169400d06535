"""`graph-context-lab advise`: the lossless format, ordering (no oracle) and policy to use, the runner-up and why."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.analysis.advisor import Advice, AdviceSettings, advise, advise_set
from core.analysis.cost import DEFAULT_MODEL
from core.budget.policies import ALL_POLICIES, POLICIES
from core.commands.graph_source import add_graph_options, graph_from_arguments
from core.commands.progress import CountBar
from core.commands.sweep import add_seed_and_query_options, budgets, names, seeds_and_queries
from core.commands.tokenizer_options import add_tokenizer_options, chosen_tokenizers
from core.errors import ParameterError
from core.formats import FORMATS
from core.questions import generate, load_questions
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS


def advice_lines(advice: Advice) -> list[str]:
    best, runner = advice.best, advice.runner_up
    plural = "s" if advice.questions != 1 else ""
    lines = [(f"at {advice.budget:,} tokens ({advice.tokenizer}, {advice.questions:,} question{plural}):"),
             (f"  best:      {best.name}: accuracy {best.traversal_accuracy:.0%}, evidence survival "
              f"{best.evidence_survival:.0%}, {best.budgeted_tokens:,.0f} tokens")]
    if runner is not None:
        lines.append(f"  runner-up: {runner.name}: accuracy {runner.traversal_accuracy:.0%}, evidence survival "
                     f"{runner.evidence_survival:.0%}, {runner.budgeted_tokens:,.0f} tokens")
        lines.append(f"  margin:    {advice.accuracy_margin:+.0%} accuracy, {advice.token_margin:+,.0f} tokens")
    lines.append(f"  why:       {advice.reason}")
    for choice in (best, runner):
        if choice is not None and choice.cost is not None:
            lines.append(f"  cost of {choice.format}: ${choice.cost.dollars:.6f} per question, "
                         f"${choice.cost.dollars_cached:.6f} with a warm prompt cache "
                         f"({choice.cost.input_tokens:,} input tokens, {choice.cost.cacheable_tokens:,} cacheable)")
    if advice.price_note:
        lines.append(f"  prices:    {advice.price_note}")
    lines.extend(f"  warning:   {warning}" for warning in advice.warnings)
    return lines


def advice_document(advice: Advice) -> dict:
    def choice(value):
        if value is None:
            return None
        figures = {key: getattr(value, key) for key in ("format", "ordering", "layout", "policy", "traversal_accuracy",
                                                       "evidence_survival", "budgeted_tokens", "evidence_budget")}
        if value.cost is not None:
            figures["cost"] = {"dollars": value.cost.dollars, "dollars_cached": value.cost.dollars_cached,
                               "input_tokens": value.cost.input_tokens, "cacheable_tokens": value.cost.cacheable_tokens}
        return figures
    return {"budget": advice.budget, "tokenizer": advice.tokenizer, "questions": advice.questions,
            "best": choice(advice.best), "runner_up": choice(advice.runner_up),
            "accuracy_margin": advice.accuracy_margin, "token_margin": advice.token_margin, "reason": advice.reason,
            "warnings": list(advice.warnings), "prices": advice.price_note,
            "picks": json.loads(advice.picks.to_json(orient="records"))}


def run(arguments: argparse.Namespace) -> int:
    graph = graph_from_arguments(arguments)
    settings = AdviceSettings(budgets=tuple(arguments.budgets), budget=arguments.budget,
                              tokenizers=chosen_tokenizers(arguments).names, formats=arguments.formats,
                              orderings=arguments.orderings, layouts=tuple(arguments.layouts),
                              policies=tuple(arguments.policies), model=arguments.price_model,
                              output_tokens=arguments.output_tokens)
    progress = None if arguments.no_progress else CountBar("advise", "task" if arguments.questions or
                                                          arguments.generate else "cut")
    try:
        if arguments.questions or arguments.generate:
            questions = load_questions(arguments.questions, graph) if arguments.questions else \
                generate(graph, arguments.generate)
            advice = advise_set(graph, questions, settings, progress=progress)
        else:
            seeds, queries = seeds_and_queries(graph, arguments)  # a sample's own defaults when none are given
            seed_ids = seeds.node_ids if seeds else ()
            if len(queries) > 1 and not seed_ids:
                raise ParameterError("several queries need shared seeds", "--query",
                                     "give --seeds or --question, or a question set with --questions")
            advice = advise(graph, queries, settings, seeds=seed_ids or None, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    print("\n".join(advice_lines(advice)))
    if arguments.output:
        arguments.output.write_text(json.dumps(advice_document(advice), indent=1, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
        print(f"advice written to {arguments.output}")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "advise", help="name the best lossless format, ordering and policy at a budget, with the runner-up and why",
        description="Sweep every lossless format under every ordering that does not read the answer, rank them at "
                    "the budget by traversal accuracy, then evidence survival, then tokens, and say why in one "
                    "sentence built from the figures; warn when the choice changes with the budget or tokenizer.")
    add_graph_options(parser)
    add_seed_and_query_options(parser, "seeds and queries (one question)")
    questions = parser.add_argument_group("or a question set").add_mutually_exclusive_group()
    questions.add_argument("--questions", type=Path, metavar="FILE", help="a CKG query file or the project's JSONL/CSV")
    questions.add_argument("--generate", metavar="SPEC", help="questions from a template, e.g. impact:type=database")
    cuts = parser.add_argument_group("what to compare")
    cuts.add_argument("--budgets", type=budgets, default=[1024], metavar="B,B,...",
                      help="budgets to compare (default 1024); the advice warns when the choice changes across them")
    cuts.add_argument("--budget", type=int, help="the budget the advice is for (default: the smallest of --budgets)")
    cuts.add_argument("--formats", type=names("format", [n for n in FORMATS.names() if FORMATS.get(n).lossless]),
                      help="lossless formats (default: all)")
    cuts.add_argument("--orderings", type=names("ordering", [n for n in ORDERINGS.names() + ORDERINGS.ends_names()
                                                             if not ORDERINGS.get(n).oracle]),
                      help="orderings without the oracle (default: all of them, without +ends)")
    cuts.add_argument("--layouts", type=names("layout", LAYOUTS), default=list(LAYOUTS),
                      help="nodes_then_edges and/or interleaved (default both, where a format allows)")
    cuts.add_argument("--policies", type=names("policy", ALL_POLICIES), default=list(POLICIES),
                      help="raw, record and/or sections (default raw,record)")
    add_tokenizer_options(parser)
    cost = parser.add_argument_group("cost")
    cost.add_argument("--price-model", metavar="NAME", help=f"price per question from the bundled dated table "
                                                            f"(tokencost), e.g. {DEFAULT_MODEL}")
    cost.add_argument("--output-tokens", type=int, default=0, help="answer tokens to price (default 0: input only)")
    parser.add_argument("--output", type=Path, help="write the advice as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(run=run)
