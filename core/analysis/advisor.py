"""The advisor: which lossless format, ordering and policy to use for a graph, questions, tokenizer and budget,
the runner-up, whether they are tied within noise, the baselines beside them, and one sentence why, built from
computed figures.

Candidates are every (lossless format, ordering, layout, policy) of a sweep (one question or a list of
queries sharing seeds) or of a suite (a question set, each question seeded from its text as a deployed
retriever would). The ranking rule is `core.analysis.ranking` (shared with the dashboard): accuracy over
the questions with its 95% Wilson interval, then the smallest budget swept at which that accuracy is
reached, then the tokens used there. To find that budget the advisor also sweeps a ladder of budgets
below the one advised for (`reach_ladder`: quarter-octave steps down to a 64th). Orderings marked as
baselines (`Ordering.baseline`: random or reading the answer) are ranked beside the pick, never picked.
When the runner-up (the best candidate in another format) cannot be told apart from the pick on this many
questions, the advice says "tied within noise", picks by cost, and names the number of questions.

When nothing answers at the advised budget (every candidate that is not a baseline at 0%), nothing is picked:
the advice says so (`Advice.nothing_answers`, in `core.analysis.what_answers`'s words), names the smallest budget
from which a candidate does answer (`answering_choices`: exact where the record policy's cuts give it, else the
swept budget, labelled one), and lists the candidates that keep the most evidence there instead of a "best".

For one question under the record policy the sentence also gives, for both, the exact budget from
which every evidence unit the question needs is kept (`core.pipeline.full_recall_budget` over the
evidence keys). The advice warns when its pick is no longer the pick at another of the budgets
given, or with another of the tokenizers given, and names what is picked there. With a model, the cost per question of the winner
and the runner-up at the budget comes from `core.analysis.cost` (dated bundled prices).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from core.analysis.answer_advice import answer_rows
from core.analysis.answering_budget import reach_of
from core.analysis.context_windows import RequestRoom, request_room
from core.analysis.cost import QuestionCost, model_prices, price_source, question_cost
from core.analysis.ranking import Standing, Verdict, choose, reach_budget
from core.analysis.suite import run_suite, settings_for
from core.analysis.sweep import Progress, sweep
from core.analysis.what_answers import Answering, what_answers
from core.budget import DEFAULT_POLICIES, POLICIES
from core.budget.policies import cut, grammar_tokens
from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.model import Graph
from core.memory.rendering_cache import RenderingCache
from core.metrics.coverage import seed_region
from core.pipeline import accounted_rendering, full_recall_budget
from core.prompt.answers import schema_for
from core.queries import Query
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS, inputs_for
from core.specs import RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS

CANDIDATE = ["format", "ordering", "layout", "policy"]
TRAVERSAL_LAYER = "traversal accuracy (the query run on what each cut keeps)"
LADDER_STEPS = 24  # quarter-octave steps (19% apart) below the advised budget: down to a 64th of it


def reach_ladder(budget: int, steps: int = LADDER_STEPS) -> tuple[int, ...]:
    """The budgets swept below `budget` to find where each candidate reaches its accuracy: budget / 2^(i/4)."""
    return tuple(sorted({max(1, round(budget * 2 ** (-step / 4))) for step in range(steps + 1)}))


@dataclass(frozen=True)
class AdviceSettings:
    budgets: tuple[int, ...] = (1024,)
    budget: int | None = None  # the budget the advice is for; default the first of `budgets`
    tokenizers: tuple[str, ...] = ("o200k_base",)
    formats: tuple[str, ...] | None = None  # default: every lossless format
    orderings: tuple[str, ...] | None = None  # default: every ordering (baselines are shown, never picked)
    layouts: tuple[str, ...] = LAYOUTS
    policies: tuple[str, ...] = DEFAULT_POLICIES
    model: str | None = None  # for the cost per question
    output_tokens: int = 0
    reader: str | None = None  # the model family (or gguf:PATH) whose context window bounds the budget
    ladder_steps: int = LADDER_STEPS  # 0: rank by the budgets given alone

    def __post_init__(self) -> None:
        if self.budget is not None and self.budget not in self.budgets:  # the advised budget is always compared
            object.__setattr__(self, "budgets", tuple(sorted({*self.budgets, self.budget})))

    @property
    def chosen_budget(self) -> int:
        return self.budgets[0] if self.budget is None else self.budget

    @property
    def swept_budgets(self) -> tuple[int, ...]:
        """The budgets given and the ladder below the advised one, smallest first."""
        return tuple(sorted({*self.budgets, *reach_ladder(self.chosen_budget, self.ladder_steps)}))

    def checked(self) -> AdviceSettings:
        if not self.budgets or not self.tokenizers:
            raise ParameterError("the advisor needs at least one budget and one tokenizer", "advise",
                                 "give budgets, e.g. 512,1024, and a tokenizer")
        lossy = [name for name in self.formats or () if not FORMATS.get(name).lossless]
        if lossy:
            raise ParameterError(f"the advisor names only lossless formats; got {', '.join(lossy)}", "advise",
                                 "leave lossy formats out")
        for name in self.orderings or ():
            ORDERINGS.get(name)
        if not any(not ORDERINGS.get(name).baseline for name in self.ordering_names()):
            raise ParameterError(f"every ordering given ({', '.join(self.ordering_names())}) is a baseline (random or "
                                 f"reading the answer), which the advisor never recommends", "advise",
                                 "add an ordering such as hop_tiers")
        for name in self.tokenizers:
            TOKENIZERS.get(name)
        return self

    def format_names(self) -> list[str]:
        return list(self.formats or [name for name in FORMATS.names() if FORMATS.get(name).lossless])

    def ordering_names(self) -> list[str]:
        return list(self.orderings or ORDERINGS.names())


@dataclass(frozen=True)
class Choice:
    format: str
    ordering: str
    layout: str
    policy: str
    traversal_accuracy: float  # mean over the questions (share answered exactly) at the advised budget
    evidence_survival: float  # mean over the questions
    budgeted_tokens: float  # mean over the questions, at the advised budget
    evidence_budget: int | None = None  # one question, record policy: the budget from which all evidence is kept
    cost: QuestionCost | None = None
    correct: int = 0  # questions answered exactly at the advised budget
    questions: int = 0
    interval: tuple[float, float] = (0.0, 1.0)  # 95% Wilson interval of the accuracy
    reach_budget: int = 0  # the smallest budget swept at which it reaches its accuracy
    reach_tokens: float = 0.0  # mean budgeted tokens at that budget
    baseline: bool = False

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
    ranking: pd.DataFrame = field(repr=False)  # every candidate at the budget, the pick first, baselines last
    picks: pd.DataFrame = field(repr=False)  # the pick at every (tokenizer, budget) given
    price_note: str = ""
    tied: bool = False  # the pick and the runner-up cannot be told apart on this many questions
    questions_to_separate: int | None = None
    most_accurate: Choice | None = None  # differs from the pick when a cheaper one tied within noise was picked
    baselines: tuple[Choice, ...] = ()  # the best candidate of each baseline ordering
    layer: str = TRAVERSAL_LAYER  # which accuracy the ranking used
    room_note: str = ""  # what fits in the reader's window (core.analysis.context_windows), when one is known
    answers: bool = True  # False: no candidate that is not a baseline answers anything at the budget
    nothing_answers: str = ""  # when nothing answers: the sentence naming the smallest budget that does
    answering: tuple[Answering, ...] = ()  # when nothing answers: per format, from which budget a candidate does
    most_evidence: tuple[Choice, ...] = ()  # when nothing answers: the candidates keeping the most evidence, shown

    @property
    def smallest_answering_budget(self) -> int | None:
        """When nothing answers at the budget: the smallest budget from which a candidate does (None: none does)."""
        return min((item.budget for item in self.answering), default=None)


def budget_warning(budget: int, room: RequestRoom) -> str | None:
    """A warning when `budget` leaves the reader's answer no room (the request would not fit), else None."""
    if budget <= room.fits:
        return None
    return (f"A {budget:,}-token budget does not fit {room.window.model}'s request: {room.fits:,} tokens of context "
            f"fit once the chat wrapper ({room.wrapper:,}), the frame ({room.frame:,}) and "
            f"{room.window.reserved_output:,} tokens for the answer are counted; use at most {room.fits:,}.")


def candidate_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (tokenizer, budget, candidate): the means over the questions and the questions answered exactly."""
    table = rows.groupby(["tokenizer", "budget", *CANDIDATE], sort=False).agg(
        traversal_accuracy=("traversal_accuracy", "mean"), correct=("traversal_accuracy", "sum"),
        evidence_survival=("evidence_survival", "mean"),
        budgeted_tokens=("budgeted_tokens", "mean"), questions=("traversal_accuracy", "size")).reset_index()
    table["correct"] = table["correct"].round().astype(int)
    table["baseline"] = [ORDERINGS.get(name).baseline for name in table["ordering"]]
    if "answering_budget" in rows.columns:  # the record policy's exact answering budgets, one per question
        answering = rows.groupby(["tokenizer", "budget", *CANDIDATE], sort=False)["answering_budget"].agg(
            lambda values: tuple(None if pd.isna(value) else int(value) for value in values))
        table = table.merge(answering.rename("answering").reset_index(), on=["tokenizer", "budget", *CANDIDATE],
                            how="left")
    return table


def ranked(table: pd.DataFrame, tokenizer: str, budget: int) -> tuple[Verdict, pd.DataFrame]:
    """The verdict of `core.analysis.ranking` at (tokenizer, budget), and every candidate there in its order
    (the pick first, baselines last) with the figures it was ranked by."""
    here = table[table["tokenizer"] == tokenizer]
    at = here[here["budget"] == budget]
    if at.empty:
        raise ParameterError(f"no candidate was measured at {budget} tokens with {tokenizer}", "advise",
                             "give a budget and tokenizer the sweep covered")
    below = here[here["budget"] <= budget]
    history = {key: list(zip(group["budget"], group["traversal_accuracy"], group["budgeted_tokens"]))
               for key, group in below.groupby(CANDIDATE, sort=False)}
    standings, rows = [], {}
    for row in at.itertuples():
        key = (row.format, row.ordering, row.layout, row.policy)
        figures = history[key]
        reach = reach_budget(((b, accuracy) for b, accuracy, _ in figures), float(row.traversal_accuracy))
        tokens = next(float(used) for b, _, used in figures if b == reach)
        answering = getattr(row, "answering", None)
        exact = reach_of(answering, float(row.traversal_accuracy)) if row.policy == "record" and \
            isinstance(answering, tuple) and answering else None
        if exact is not None:  # the exact budget from which it answers, from the cuts' own prefix counts
            reach, tokens = exact, float(exact)
        standing = Standing(_label(row), row.format, int(row.correct), int(row.questions), int(reach), tokens,
                            bool(row.baseline), POLICIES.get(row.policy).preference)
        standings.append(standing)
        rows[standing.name] = {**row._asdict(), "reach_budget": int(reach), "reach_tokens": tokens,
                               "interval_low": standing.interval[0], "interval_high": standing.interval[1]}
    verdict = choose(standings)
    order = [*verdict.order, *verdict.baselines]
    ranking = pd.DataFrame([rows[standing.name] for standing in order]).drop(columns=["Index"])
    ranking["rank"] = range(1, len(ranking) + 1)
    return verdict, ranking.reset_index(drop=True)


def sweep_rows(graph: Graph, queries: Sequence[Query], seeds: Sequence[str] | None, settings: AdviceSettings,
               progress: Progress | None = None, cache: RenderingCache | None = None) -> pd.DataFrame:
    """The candidates' rows for one question (or queries sharing seeds), one sweep per tokenizer; `progress` hears
    (cuts done, cuts in all, what) across the tokenizers' sweeps."""
    frames = [sweep(SweepSpec.from_names(graph, list(queries), seeds=seeds, format_names=settings.format_names(),
                                         ordering_names=settings.ordering_names(), layouts=settings.layouts,
                                         policy_names=settings.policies, budgets=settings.swept_budgets,
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
                             policies=settings.policies, budgets=settings.swept_budgets, seedings=("text",),
                             tokenizer=tokenizer)
        rows = run_suite(graph, question_set, suite, workers=workers,
                         progress=_share(progress, index, len(settings.tokenizers), tokenizer)
                         ).rows.assign(tokenizer=tokenizer)
        frames.append(rows.rename(columns={"question_id": "query"}))
    return pd.concat(frames, ignore_index=True)


def _choice(row) -> Choice:
    return Choice(row.format, row.ordering, row.layout, row.policy, float(row.traversal_accuracy),
                  float(row.evidence_survival), float(row.budgeted_tokens), correct=int(row.correct),
                  questions=int(row.questions), interval=(float(row.interval_low), float(row.interval_high)),
                  reach_budget=int(row.reach_budget), reach_tokens=float(row.reach_tokens), baseline=bool(row.baseline))


def pick(table: pd.DataFrame, tokenizer: str, budget: int) -> tuple[Verdict, Choice, Choice | None, pd.DataFrame]:
    """The verdict, the pick, the runner-up (best in another format) and the ranking at (tokenizer, budget)."""
    verdict, ranking = ranked(table, tokenizer, budget)
    by_name = {_label(row): row for row in ranking.itertuples()}
    best = _choice(by_name[verdict.pick.name])
    runner_up = None if verdict.runner_up is None else _choice(by_name[verdict.runner_up.name])
    return verdict, best, runner_up, ranking


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


def _interval(choice: Choice) -> str:
    low, high = choice.interval
    return f"{low:.0%}-{high:.0%}"


def _questions(count: int) -> str:
    return "one question" if count == 1 else f"{count:,} questions"


def reason(best: Choice, runner_up: Choice | None, budget: int, questions: int, *, tied: bool = False,
           questions_to_separate: int | None = None, most_accurate: Choice | None = None,
           baselines: Sequence[Choice] = ()) -> str:
    """The sentences from the figures: what the pick achieves, the runner-up, whether they are tied within
    noise (and on how many questions), and the baselines beside them."""
    asked = "the question" if questions == 1 else f"the {questions:,} questions"
    text = (f"At {budget:,} tokens {best.format} answers {_percent(best.traversal_accuracy)} of {asked} "
            f"(95% interval {_interval(best)}) and reaches that from {best.reach_budget:,} tokens")
    if runner_up is None:
        text += "; no other lossless format was compared."
    else:
        text += (f"; {runner_up.format} answers {_percent(runner_up.traversal_accuracy)} "
                 f"({_interval(runner_up)}) and reaches that from {runner_up.reach_budget:,} tokens.")
    if best.evidence_budget is not None and runner_up is not None and runner_up.evidence_budget is not None:
        text += (f" {best.format} keeps every unit {asked} needs at {best.evidence_budget:,} tokens; "
                 f"{runner_up.format} needs {runner_up.evidence_budget:,}.")
    if runner_up is not None:
        if tied:
            separate = ("no number of questions separates equal accuracies" if questions_to_separate is None
                        else f"separating {_percent(best.traversal_accuracy)} from "
                             f"{_percent(runner_up.traversal_accuracy)} takes {questions_to_separate:,}")
            text += (f" Tied within noise: the advice rests on {_questions(questions)} ({separate}), "
                     f"so it picks by cost: {_by_cost(best)} against {_by_cost(runner_up)}.")
        else:
            text += f" Separated on {_questions(questions)}: their 95% intervals do not overlap."
    if most_accurate is not None and most_accurate.traversal_accuracy > best.traversal_accuracy:
        text += (f" The most accurate, {most_accurate.name} at {_percent(most_accurate.traversal_accuracy)}, is "
                 f"within noise of the pick and reaches that only from {most_accurate.reach_budget:,} tokens.")
    if baselines:
        text += " Baselines, never picked: " + "; ".join(
            f"{choice.ordering} ({choice.format}) answers {_percent(choice.traversal_accuracy)}"
            for choice in baselines) + "."
    return text


def _by_cost(choice: Choice) -> str:
    """What a tie is broken by: the budget it answers from, and the tokens used there when they differ."""
    if round(choice.reach_tokens) == choice.reach_budget:
        return f"{choice.reach_budget:,} tokens"
    return f"{choice.reach_tokens:,.0f} tokens at {choice.reach_budget:,}"


def _asked(questions: int) -> str:
    return "the question" if questions == 1 else f"any of the {questions:,} questions"


def nothing_reason(advice: Advice) -> str:
    """The sentences when nothing answers at the budget: that none is picked, the candidates that keep the most
    evidence there, for one question the budget from which each keeps all of it, and the baselines."""
    best = advice.best
    asked = "the question" if advice.questions == 1 else f"the {advice.questions:,} questions"
    compared = len(advice.ranking) - int(advice.ranking["baseline"].sum())
    text = (f"At {advice.budget:,} tokens every one of the {compared:,} candidates compared answers 0% of {asked} "
            f"(95% interval {_interval(best)}), so none is picked.")
    if advice.most_evidence:
        text += f" Most evidence kept at {advice.budget:,} tokens: " + "; ".join(
            f"{choice.name} keeps {_percent(choice.evidence_survival)} of it in {choice.budgeted_tokens:,.0f} tokens"
            for choice in advice.most_evidence) + "."
    needs = [choice for choice in advice.most_evidence if choice.evidence_budget is not None]
    if needs:
        first, *others = needs
        text += (f" {first.format} keeps every unit {asked} needs from {first.evidence_budget:,} tokens"
                 + "".join(f"; {choice.format} from {choice.evidence_budget:,}" for choice in others) + ".")
    if advice.baselines:
        text += " Baselines, never picked: " + "; ".join(
            f"{choice.ordering} ({choice.format}) answers {_percent(choice.traversal_accuracy)}"
            for choice in advice.baselines) + "."
    return text


def answering_choices(table: pd.DataFrame, tokenizer: str) -> tuple[Answering, ...]:
    """Per format, the candidate (not a baseline) that answers something from the smallest budget: the record
    policy's exact answering budget where the table carries it (`answering`), else the smallest swept budget at
    which its accuracy is above 0 (`Answering.exact` false); cheapest first, formats that never answer left out."""
    here = table[(table["tokenizer"] == tokenizer) & ~table["baseline"].astype(bool)]
    found = []
    for key, group in here.groupby(CANDIDATE, sort=False):
        answered = group[group["traversal_accuracy"] > 0]
        if answered.empty:
            continue
        grid = int(answered["budget"].min())
        budget, exact = grid, False
        if key[3] == "record" and "answering" in group.columns:
            figures = [value for values in group["answering"] if isinstance(values, tuple)
                       for value in values if value is not None]
            if figures and min(figures) <= grid:
                budget, exact = min(figures), True
        tokens = float(answered.loc[answered["budget"] == grid, "budgeted_tokens"].iloc[0])
        found.append((budget, tokens, POLICIES.get(key[3]).preference, "/".join(key), key, exact))
    found.sort(key=lambda item: item[:4])
    first: dict[str, Answering] = {}
    for budget, _tokens, _preference, _name, key, exact in found:
        first.setdefault(key[0], Answering(f"{key[0]} ({key[1]}, {key[2]}, {key[3]})", budget, exact))
    return tuple(first.values())


def _most_evidence(ranking: pd.DataFrame, count: int = 3) -> tuple[Choice, ...]:
    """The candidates (not baselines) keeping the most evidence at the budget, fewest tokens first among equals,
    the first of each format, up to `count`."""
    rows = ranking[~ranking["baseline"].astype(bool)].sort_values(
        ["evidence_survival", "budgeted_tokens", "rank"], ascending=[False, True, True], kind="stable")
    return tuple(_choice(row) for row in rows.drop_duplicates("format").head(count).itertuples())


def _swept(table: pd.DataFrame, tokenizer: str) -> str:
    budgets = sorted({int(value) for value in table.loc[table["tokenizer"] == tokenizer, "budget"]})
    if len(budgets) == 1:
        return f"the budget swept ({budgets[0]:,} tokens)"
    return f"the {len(budgets):,} budgets swept ({budgets[0]:,} to {budgets[-1]:,} tokens)"


def _label(row) -> str:
    return f"{row.format}/{row.ordering}/{row.layout}/{row.policy}"


def _key(choice: Choice) -> tuple[str, str, str, str]:
    return (choice.format, choice.ordering, choice.layout, choice.policy)


def _changed(table: pd.DataFrame, best: Choice, tokenizer: str, budget: int) -> str | None:
    """The pick at (tokenizer, budget) when it is not the advised candidate (same ranking rule)."""
    if table[(table["tokenizer"] == tokenizer) & (table["budget"] == budget)].empty:
        return None
    ranking = ranked(table, tokenizer, budget)[1]
    top = ranking.iloc[0]
    if top["traversal_accuracy"] <= 0:  # no pick where nothing answers: say so, unless nothing answers here either
        return None if best.traversal_accuracy <= 0 else "nothing answers"
    if (top["format"], top["ordering"], top["layout"], top["policy"]) == _key(best):
        return None
    return (f"{_label(next(ranking.head(1).itertuples()))} (accuracy {top['traversal_accuracy']:.0%}, reached from "
            f"{_cost(int(top['reach_budget']), float(top['reach_tokens']))}) is picked")


def _cost(budget: int, tokens: float) -> str:
    """"N tokens" when the tokens used equal the budget reached from (an exact figure), else "T tokens at N"."""
    return f"{budget:,} tokens" if round(tokens) == budget else f"{budget:,} tokens, {tokens:,.0f} tokens there"


def warnings_for(table: pd.DataFrame, settings: AdviceSettings, best: Choice) -> tuple[tuple[str, ...], pd.DataFrame]:
    """Warnings where the advised candidate is not the pick: at another budget given (same tokenizer), or with
    another tokenizer (same budget); and the pick at every (tokenizer, budget) given."""
    picks = pd.concat([ranked(table, tokenizer, budget)[1].head(1) for tokenizer in settings.tokenizers
                       for budget in settings.budgets
                       if not table[(table["tokenizer"] == tokenizer) & (table["budget"] == budget)].empty],
                      ignore_index=True)[["tokenizer", "budget", *CANDIDATE, "traversal_accuracy", "evidence_survival",
                                          "budgeted_tokens", "reach_budget", "reach_tokens"]]
    tokenizer, chosen = settings.tokenizers[0], settings.chosen_budget
    found = []
    by_budget = [(budget, _changed(table, best, tokenizer, budget)) for budget in settings.budgets if budget != chosen]
    changes = [f"at {budget:,} tokens {better}" for budget, better in by_budget if better]
    if changes:
        found.append("The choice changes with the budget: " + "; ".join(changes) + ".")
    by_tokenizer = [(name, _changed(table, best, name, chosen)) for name in settings.tokenizers[1:]]
    changes = [f"with {name} {better}" for name, better in by_tokenizer if better]
    if changes:
        found.append(f"The choice changes with the tokenizer at {chosen:,} tokens: " + "; ".join(changes) + ".")
    return tuple(found), picks


def _best_baselines(ranking: pd.DataFrame) -> tuple[Choice, ...]:
    """The best-ranked candidate of each baseline ordering (the ranking lists baselines in rank order)."""
    rows = ranking[ranking["baseline"]].drop_duplicates("ordering")
    return tuple(_choice(row) for row in rows.itertuples())


def advise_rows(rows: pd.DataFrame, settings: AdviceSettings, layer: str = TRAVERSAL_LAYER) -> Advice:
    """The advice from candidate rows (a sweep's, a suite's or a stored run's, with a `tokenizer` column), ranked
    by their `traversal_accuracy` column, which `layer` names."""
    settings = settings.checked()
    rows = rows[rows["lossless"]]
    table = candidate_table(rows)
    tokenizer, budget = settings.tokenizers[0], settings.chosen_budget
    verdict, best, runner_up, ranking = pick(table, tokenizer, budget)
    warnings, picks = warnings_for(table, settings, best)
    by_name = {_label(row): row for row in ranking.itertuples()}
    most_accurate = _choice(by_name[verdict.most_accurate.name])
    baselines = _best_baselines(ranking)
    advice = Advice(budget, tokenizer, verdict.questions, best, runner_up,
                    None if runner_up is None else best.traversal_accuracy - runner_up.traversal_accuracy,
                    None if runner_up is None else runner_up.budgeted_tokens - best.budgeted_tokens,
                    "", warnings, ranking, picks, tied=verdict.tied,
                    questions_to_separate=verdict.questions_to_separate, most_accurate=most_accurate,
                    baselines=baselines, layer=layer)
    if most_accurate.traversal_accuracy <= 0:  # nothing answers here: no pick, the smallest budget that does
        answering = answering_choices(table, tokenizer)
        advice = _replace(advice, answers=False, answering=answering, most_evidence=_most_evidence(ranking),
                          nothing_answers=what_answers(budget, list(answering), _swept(table, tokenizer),
                                                       _asked(verdict.questions)))
    return _replace(advice, reason=advice_reason(advice))


def advice_reason(advice: Advice) -> str:
    if not advice.answers:
        return nothing_reason(advice) + f" Ranked by {advice.layer}."
    return reason(advice.best, advice.runner_up, advice.budget, advice.questions, tied=advice.tied,
                  questions_to_separate=advice.questions_to_separate, most_accurate=advice.most_accurate,
                  baselines=advice.baselines) + f" Ranked by {advice.layer}."


def advise_answers(results: list[dict], settings: AdviceSettings, run_id: str) -> Advice:
    """The advice from a stored run's scored answers (`core.analysis.answer_advice`): the same rule, ranked by
    the model's exact matches, over the budgets the run measured."""
    rows = answer_rows(results)
    budgets = tuple(sorted({int(budget) for budget in rows["budget"]}))
    chosen = settings.budget if settings.budget in budgets else budgets[-1]
    settings = _replace(settings, budgets=budgets, budget=chosen, ladder_steps=0,
                        tokenizers=tuple(dict.fromkeys(rows["tokenizer"])))
    return advise_rows(rows, settings, layer=f"the model's answers (exact match, run {run_id})")


def advise(graph: Graph, queries: Sequence[Query], settings: AdviceSettings, *, seeds: Sequence[str] | None = None,
           progress: Progress | None = None, cache: RenderingCache | None = None) -> Advice:
    """The advice for one question (or queries sharing seeds): sweep, rank, and the sentence's figures."""
    settings = settings.checked()
    seed_ids = tuple(seeds) if seeds else tuple(dict.fromkeys(seed for query in queries for seed in query.seeds))
    advice = advise_rows(sweep_rows(graph, queries, seed_ids, settings, progress, cache), settings)
    best, runner_up, most_evidence = advice.best, advice.runner_up, advice.most_evidence
    if len(queries) == 1:
        def with_budget(choice: Choice) -> Choice:
            if choice.policy != "record":
                return choice
            return _replace(choice, evidence_budget=evidence_budget(graph, queries[0], seed_ids, choice,
                                                                    advice.tokenizer, cache))
        best, runner_up = with_budget(best), None if runner_up is None else with_budget(runner_up)
        most_evidence = tuple(with_budget(choice) for choice in most_evidence)
    warnings, room_note = advice.warnings, ""
    if settings.reader and len(queries) == 1:
        query = queries[0]
        room = request_room(settings.reader, TOKENIZERS.get(advice.tokenizer),
                            schema_for(query.name, query.solve(graph).answer), query.question_on(graph))
        if room is not None:
            room_note = room.describe()
            warning = budget_warning(advice.budget, room)
            warnings += (warning,) if warning else ()
    note = ""
    model = settings.model
    if model:
        def with_cost(choice: Choice) -> Choice:
            return _replace(choice, cost=choice_cost(graph, queries, seed_ids, choice, advice.tokenizer,
                                                     advice.budget, model, settings.output_tokens, cache))
        best, runner_up = with_cost(best), None if runner_up is None else with_cost(runner_up)
        most_evidence = tuple(with_cost(choice) for choice in most_evidence)
        note = f"{model}: {price_source().describe()}"
    advice = _replace(advice, best=best, runner_up=runner_up, price_note=note, warnings=warnings, room_note=room_note,
                      most_evidence=most_evidence)
    return _replace(advice, reason=advice_reason(advice))


def advise_set(graph: Graph, question_set, settings: AdviceSettings, *, workers: int | None = 1,
               progress: Progress | None = None) -> Advice:
    """The set-wide advice: a suite over the questions (seeded from their text), ranked by the means."""
    settings = settings.checked()
    return advise_rows(suite_rows(graph, question_set, settings, workers=workers, progress=progress), settings)


def _replace(value, **changes):
    from dataclasses import replace
    return replace(value, **changes)
