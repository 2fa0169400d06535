"""The advisor: which lossless format, ordering (no oracle) and policy to use for a graph, questions, tokenizer
and budget, the runner-up, the margin, and one sentence why, built from computed figures.

Candidates are every (lossless format, non-oracle ordering, layout, policy) of a sweep (one question
or a list of queries sharing seeds) or of a suite (a question set, each question seeded from its
text as a deployed retriever would). At a budget they are ranked by mean traversal accuracy over
the questions, then mean evidence survival, then fewer mean budgeted tokens, then the policy that
always parses (record, sections, raw), then by name (so the ranking is total and reproducible). The runner-up is the best candidate in another format. The
margin is the winner's accuracy minus the runner-up's, and the runner-up's tokens minus the winner's.

For one question under the record policy the sentence also gives, for both, the exact budget from
which every evidence unit the question needs is kept (`core.analysis.sweep.full_recall_budget` over the
evidence keys). The advice warns when its pick is no longer (tied) best at another of the budgets
given, or with another of the tokenizers given, and names what is better there. With a model, the cost per question of the winner
and the runner-up at the budget comes from `core.analysis.cost` (dated bundled prices).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from core.analysis.cost import QuestionCost, model_prices, price_source, question_cost
from core.analysis.suite import run_suite, settings_for
from core.analysis.sweep import Progress, accounted_rendering, full_recall_budget, sweep
from core.budget.policies import POLICIES, cut, grammar_tokens
from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.model import Graph
from core.memory.rendering_cache import RenderingCache
from core.metrics.coverage import seed_region
from core.prompt.answers import schema_for
from core.queries import Query
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS, inputs_for
from core.specs import RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS

CANDIDATE = ["format", "ordering", "layout", "policy"]
# On equal figures a cut that always parses is preferred: record, then sections, then raw.
POLICY_PREFERENCE = {"record": 0, "sections": 1, "raw": 2}


@dataclass(frozen=True)
class AdviceSettings:
    budgets: tuple[int, ...] = (1024,)
    budget: int | None = None  # the budget the advice is for; default the first of `budgets`
    tokenizers: tuple[str, ...] = ("o200k_base",)
    formats: tuple[str, ...] | None = None  # default: every lossless format
    orderings: tuple[str, ...] | None = None  # default: every ordering that does not read the answer
    layouts: tuple[str, ...] = LAYOUTS
    policies: tuple[str, ...] = POLICIES
    model: str | None = None  # for the cost per question
    output_tokens: int = 0

    @property
    def chosen_budget(self) -> int:
        return self.budgets[0] if self.budget is None else self.budget

    def checked(self) -> AdviceSettings:
        if not self.budgets or not self.tokenizers:
            raise ParameterError("the advisor needs at least one budget and one tokenizer", "advise",
                                 "give budgets, e.g. 512,1024, and a tokenizer")
        if self.budget is not None and self.budget not in self.budgets:
            raise ParameterError(f"budget {self.budget} is not among the budgets {list(self.budgets)}", "advise",
                                 "give a budget from the list, or add it to the list")
        lossy = [name for name in self.formats or () if not FORMATS.get(name).lossless]
        oracles = [name for name in self.orderings or () if ORDERINGS.get(name).oracle]
        if lossy or oracles:
            raise ParameterError(f"the advisor names only lossless formats and orderings without the answer; got "
                                 f"{', '.join(lossy + oracles)}", "advise", "leave lossy formats and evidence_first out")
        for name in self.tokenizers:
            TOKENIZERS.get(name)
        return self

    def format_names(self) -> list[str]:
        return list(self.formats or [name for name in FORMATS.names() if FORMATS.get(name).lossless])

    def ordering_names(self) -> list[str]:
        return list(self.orderings or [name for name in ORDERINGS.names() if not ORDERINGS.get(name).oracle])


@dataclass(frozen=True)
class Choice:
    format: str
    ordering: str
    layout: str
    policy: str
    traversal_accuracy: float  # mean over the questions (share answered exactly)
    evidence_survival: float  # mean over the questions
    budgeted_tokens: float  # mean over the questions
    evidence_budget: int | None = None  # one question, record policy: the budget from which all evidence is kept
    cost: QuestionCost | None = None

    @property
    def name(self) -> str:
        return f"{self.format} ({self.ordering}, {self.layout}, {self.policy})"


@dataclass(frozen=True)
class Advice:
    budget: int
    tokenizer: str
    questions: int
    best: Choice
    runner_up: Choice | None
    accuracy_margin: float | None  # best - runner-up
    token_margin: float | None  # runner-up - best
    reason: str
    warnings: tuple[str, ...]
    ranking: pd.DataFrame = field(repr=False)  # every candidate at the budget, best first
    picks: pd.DataFrame = field(repr=False)  # the pick at every (tokenizer, budget)
    price_note: str = ""


def candidate_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (tokenizer, budget, candidate): the means over the questions, ranked best first within each budget."""
    table = rows.groupby(["tokenizer", "budget", *CANDIDATE], sort=False).agg(
        traversal_accuracy=("traversal_accuracy", "mean"), evidence_survival=("evidence_survival", "mean"),
        budgeted_tokens=("budgeted_tokens", "mean"), questions=("traversal_accuracy", "size")).reset_index()
    table["_accuracy"], table["_survival"] = -table["traversal_accuracy"], -table["evidence_survival"]
    table["_policy"] = table["policy"].map(POLICY_PREFERENCE)
    table = table.sort_values(["tokenizer", "budget", "_accuracy", "_survival", "budgeted_tokens", "_policy",
                               *CANDIDATE], kind="stable").drop(columns=["_accuracy", "_survival", "_policy"])
    table["rank"] = table.groupby(["tokenizer", "budget"], sort=False).cumcount() + 1
    return table.reset_index(drop=True)


def sweep_rows(graph: Graph, queries: Sequence[Query], seeds: Sequence[str] | None, settings: AdviceSettings,
               progress: Progress | None = None, cache: RenderingCache | None = None) -> pd.DataFrame:
    """The candidates' rows for one question (or queries sharing seeds), one sweep per tokenizer; `progress` hears
    (cuts done, cuts in all, what) across the tokenizers' sweeps."""
    frames = [sweep(SweepSpec.from_names(graph, list(queries), seeds=seeds, format_names=settings.format_names(),
                                         ordering_names=settings.ordering_names(), layouts=settings.layouts,
                                         policy_names=settings.policies, budgets=settings.budgets,
                                         tokenizer_name=tokenizer),
                    progress=_share(progress, index, len(settings.tokenizers), tokenizer), cache=cache)
              for index, tokenizer in enumerate(settings.tokenizers)]
    return pd.concat(frames, ignore_index=True)


def _share(progress: Progress | None, index: int, parts: int, name: str) -> Progress | None:
    """Progress of part `index` of `parts` equal ones (one per tokenizer), reported as progress of the whole."""
    if progress is None:
        return None
    report = progress

    def share(done: int, total: int, what: str) -> None:
        report(index * total + done, parts * total, f"{name}: {what}" if parts > 1 else what)

    return share


def suite_rows(graph: Graph, question_set, settings: AdviceSettings, *, workers: int | None = 1,
               progress: Progress | None = None) -> pd.DataFrame:
    """The candidates' rows for a question set, each question seeded from its text, one suite per tokenizer."""
    frames = []
    for index, tokenizer in enumerate(settings.tokenizers):
        suite = settings_for(settings.format_names(), settings.ordering_names(), layouts=settings.layouts,
                             policies=settings.policies, budgets=settings.budgets, seedings=("text",),
                             tokenizer=tokenizer)
        rows = run_suite(graph, question_set, suite, workers=workers,
                         progress=_share(progress, index, len(settings.tokenizers), tokenizer)
                         ).rows.assign(tokenizer=tokenizer)
        frames.append(rows.rename(columns={"question_id": "query"}))
    return pd.concat(frames, ignore_index=True)


def _choice(row) -> Choice:
    return Choice(row.format, row.ordering, row.layout, row.policy, float(row.traversal_accuracy),
                  float(row.evidence_survival), float(row.budgeted_tokens))


def pick(table: pd.DataFrame, tokenizer: str, budget: int) -> tuple[Choice, Choice | None, pd.DataFrame]:
    """The best candidate, the best one in another format, and the ranking at (tokenizer, budget)."""
    ranking = table[(table["tokenizer"] == tokenizer) & (table["budget"] == budget)]
    if ranking.empty:
        raise ParameterError(f"no candidate was measured at {budget} tokens with {tokenizer}", "advise",
                             "give a budget and tokenizer the sweep covered")
    best = _choice(next(ranking.itertuples()))
    others = ranking[ranking["format"] != best.format]
    runner_up = _choice(next(others.itertuples())) if not others.empty else None
    return best, runner_up, ranking


def evidence_budget(graph: Graph, query: Query, seeds: Sequence[str], choice: Choice, tokenizer: str,
                    cache: RenderingCache | None = None) -> int | None:
    """The smallest budget at which the record policy keeps every evidence unit of `query` in this choice."""
    format_, ordering = FORMATS.get(choice.format), ORDERINGS.get(choice.ordering)
    region = seed_region(graph, seeds)
    inputs = inputs_for(ordering, region.seeds, evidence=query.solve(graph).evidence, question=query.question_on(graph))
    encoder = TOKENIZERS.get(tokenizer)
    accounting = accounted_rendering(RenderingSpec(graph, format_, ordering, choice.layout, inputs, encoder),
                                     region=region, cache=cache)
    return full_recall_budget(accounting, query.solve(graph).evidence, grammar_tokens(format_, encoder))


def choice_cost(graph: Graph, queries: Sequence[Query], seeds: Sequence[str], choice: Choice, tokenizer: str,
                budget: int, model: str, output_tokens: int, cache: RenderingCache | None = None) -> QuestionCost:
    """The cost of asking the first query about this choice's cut at the budget (core.analysis.cost)."""
    query = queries[0]
    format_, ordering = FORMATS.get(choice.format), ORDERINGS.get(choice.ordering)
    region = seed_region(graph, seeds)
    inputs = inputs_for(ordering, region.seeds, evidence=query.solve(graph).evidence, question=query.question_on(graph))
    encoder = TOKENIZERS.get(tokenizer)
    accounting = accounted_rendering(RenderingSpec(graph, format_, ordering, choice.layout, inputs, encoder),
                                     region=region, cache=cache)
    result = cut(accounting, format_, choice.policy, budget)
    schema = schema_for(query.name, query.solve(graph).answer)
    return question_cost(result, format_, encoder, schema, query.question_on(graph), model_prices(model),
                         output_tokens)


def _percent(value: float) -> str:
    return f"{value:.0%}"


def reason(best: Choice, runner_up: Choice | None, budget: int, questions: int) -> str:
    """One sentence from the figures: what the winner achieves at the budget, and what the runner-up does."""
    asked = "the question" if questions == 1 else f"the {questions:,} questions"
    if best.evidence_budget is not None and runner_up is not None and runner_up.evidence_budget is not None:
        return (f"{best.format} keeps every unit {asked} needs at {best.evidence_budget:,} tokens; "
                f"{runner_up.format} needs {runner_up.evidence_budget:,}.")
    text = (f"At {budget:,} tokens {best.format} answers {_percent(best.traversal_accuracy)} of {asked} "
            f"with {_percent(best.evidence_survival)} of the evidence in {best.budgeted_tokens:,.0f} tokens")
    if runner_up is None:
        return text + "; no other lossless format was compared."
    return (text + f"; {runner_up.format} answers {_percent(runner_up.traversal_accuracy)} with "
            f"{_percent(runner_up.evidence_survival)} of the evidence in {runner_up.budgeted_tokens:,.0f} tokens.")


def _label(row) -> str:
    return f"{row.format}/{row.ordering}/{row.layout}/{row.policy}"


def _figures(row) -> tuple[float, float, float]:
    return (float(row.traversal_accuracy), float(row.evidence_survival), -float(row.budgeted_tokens))


def _changed(table: pd.DataFrame, best: Choice, tokenizer: str, budget: int) -> str | None:
    """The better pick at (tokenizer, budget) when the advised candidate is not among the best there."""
    ranking = table[(table["tokenizer"] == tokenizer) & (table["budget"] == budget)]
    if ranking.empty:
        return None
    top = next(ranking.itertuples())
    mine = ranking[(ranking["format"] == best.format) & (ranking["ordering"] == best.ordering)
                   & (ranking["layout"] == best.layout) & (ranking["policy"] == best.policy)]
    if not mine.empty and _figures(next(mine.itertuples())) >= _figures(top):
        return None  # still (tied) best there
    return (f"{_label(top)} (accuracy {top.traversal_accuracy:.0%}, evidence survival {top.evidence_survival:.0%}, "
            f"{top.budgeted_tokens:,.0f} tokens)")


def warnings_for(table: pd.DataFrame, settings: AdviceSettings, best: Choice) -> tuple[tuple[str, ...], pd.DataFrame]:
    """Warnings where the advised candidate is no longer the best: at another budget (same tokenizer), or with
    another tokenizer (same budget). Ties are not changes."""
    picks = table[table["rank"] == 1][["tokenizer", "budget", *CANDIDATE, "traversal_accuracy",
                                       "evidence_survival", "budgeted_tokens"]].reset_index(drop=True)
    tokenizer, chosen = settings.tokenizers[0], settings.chosen_budget
    found = []
    by_budget = [(budget, _changed(table, best, tokenizer, budget)) for budget in settings.budgets if budget != chosen]
    changes = [f"at {budget:,} tokens {better} is better" for budget, better in by_budget if better]
    if changes:
        found.append("The choice changes with the budget: " + "; ".join(changes) + ".")
    by_tokenizer = [(name, _changed(table, best, name, chosen)) for name in settings.tokenizers[1:]]
    changes = [f"with {name} {better} is better" for name, better in by_tokenizer if better]
    if changes:
        found.append(f"The choice changes with the tokenizer at {chosen:,} tokens: " + "; ".join(changes) + ".")
    return tuple(found), picks


def advise_rows(rows: pd.DataFrame, settings: AdviceSettings) -> Advice:
    """The advice from candidate rows (a sweep's or a suite's, with a `tokenizer` column)."""
    settings = settings.checked()
    rows = rows[rows["lossless"] & ~rows["oracle"]]
    table = candidate_table(rows)
    tokenizer, budget = settings.tokenizers[0], settings.chosen_budget
    best, runner_up, ranking = pick(table, tokenizer, budget)
    warnings, picks = warnings_for(table, settings, best)
    questions = int(ranking["questions"].iloc[0])
    return Advice(budget, tokenizer, questions, best, runner_up,
                  None if runner_up is None else best.traversal_accuracy - runner_up.traversal_accuracy,
                  None if runner_up is None else runner_up.budgeted_tokens - best.budgeted_tokens,
                  reason(best, runner_up, budget, questions), warnings, ranking.reset_index(drop=True), picks)


def advise(graph: Graph, queries: Sequence[Query], settings: AdviceSettings, *, seeds: Sequence[str] | None = None,
           progress: Progress | None = None, cache: RenderingCache | None = None) -> Advice:
    """The advice for one question (or queries sharing seeds): sweep, rank, and the sentence's figures."""
    settings = settings.checked()
    seed_ids = tuple(seeds) if seeds else tuple(dict.fromkeys(seed for query in queries for seed in query.seeds))
    advice = advise_rows(sweep_rows(graph, queries, seed_ids, settings, progress, cache), settings)
    best, runner_up = advice.best, advice.runner_up
    if len(queries) == 1:
        def with_budget(choice: Choice) -> Choice:
            if choice.policy != "record":
                return choice
            return _replace(choice, evidence_budget=evidence_budget(graph, queries[0], seed_ids, choice,
                                                                    advice.tokenizer, cache))
        best, runner_up = with_budget(best), None if runner_up is None else with_budget(runner_up)
    note = ""
    model = settings.model
    if model:
        def with_cost(choice: Choice) -> Choice:
            return _replace(choice, cost=choice_cost(graph, queries, seed_ids, choice, advice.tokenizer,
                                                     advice.budget, model, settings.output_tokens, cache))
        best, runner_up = with_cost(best), None if runner_up is None else with_cost(runner_up)
        note = f"{model}: {price_source().describe()}"
    return _replace(advice, best=best, runner_up=runner_up, reason=reason(best, runner_up, advice.budget,
                                                                          advice.questions), price_note=note)


def advise_set(graph: Graph, question_set, settings: AdviceSettings, *, workers: int | None = 1,
               progress: Progress | None = None) -> Advice:
    """The set-wide advice: a suite over the questions (seeded from their text), ranked by the means."""
    settings = settings.checked()
    return advise_rows(suite_rows(graph, question_set, settings, workers=workers, progress=progress), settings)


def _replace(value, **changes):
    from dataclasses import replace
    return replace(value, **changes)
