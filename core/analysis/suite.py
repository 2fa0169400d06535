"""Suite sweeps: every question of a set × format × ordering × layout × policy × budget, one row per
question, seeding and cut, on a local process pool or on Ray (core.execution.engine).

Work is shared wherever the answer allows: renderings that do not depend on the question
(canonical, shuffled, centrality) are rendered, cut and decoded once per format for all questions,
and only the seed-dependent columns (candidate recall, D_k(S), the full-recall budget) are computed
per question; seed orderings (BFS, hop tiers, personalized PageRank) are rendered once per distinct
seed set, shared by the questions and seedings that have it; orderings built from the question
(evidence-first, BM25 against the question) once per question. Each task is one call of
`core.analysis.sweep.sweep`, so a suite measures exactly what a one-question sweep measures.
Seeds come two ways (core.questions.seeding): from the text and from the annotations; a question
with no seeds one way keeps its question-independent rows there (candidate recall missing) and
is listed by `unseeded_questions`. A question whose answer on the full graph is empty measures nothing
(core.questions.answered): `run_suite` leaves it out of the rows, so of every aggregate, advice and front
built on them, and lists it with the reason in `SuiteResult.left_out`; `SuiteResult.headline` counts it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from core.analysis.sweep import sweep
from core.budget import DEFAULT_POLICIES
from core.budget.policies import check_policy, grammar_tokens
from core.errors import ParameterError
from core.execution.engine import run_tasks
from core.formats import FORMATS
from core.graph.model import Graph
from core.memory.rendering_cache import DEFAULT_CACHE_BYTES, RenderingCache, rendering_cache
from core.metrics.coverage import SeedRegion, coverage_tokens, seed_region
from core.pipeline import accounted_rendering, full_recall_budget
from core.queries import Query
from core.questions import (
    SEEDINGS,
    AnsweredSplit,
    QuestionSet,
    answered_split,
    check_ground_truth,
    counted_questions,
    question_seeds,
)
from core.questions.own_schema import READ_AS
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS, check_layout, inputs_for
from core.retrieval.seeds import Seeds
from core.specs import DEFAULT_BUDGETS, RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS

ROW_COLUMNS = [
    "question_id", "seeding", "tokenizer", "template", "query_type", "hop_depth", "format", "lossless", "ordering", "oracle",
    "layout", "policy", "budget", "tokens", "budgeted_tokens", "records_kept", "records_total", "parse_ok",
    "evidence_total", "evidence_kept", "evidence_survival", "evidence_complete", "traversal_accuracy",
    "candidate_total", "candidate_recall", "coverage_tokens", "full_recall_budget",
]
LEFT_OUT_COLUMNS = ["question_id", "question", "query_type", "template", "reason"]
SORT_KEY = ["question_id", "seeding", "format", "ordering", "layout", "policy", "budget"]
Progress = Callable[[int, int, str], None]  # (tasks done, tasks in total, what)


@dataclass(frozen=True)
class SuiteSettings:
    formats: tuple[str, ...]
    orderings: tuple[str, ...]
    layouts: tuple[str, ...] = LAYOUTS
    policies: tuple[str, ...] = DEFAULT_POLICIES
    budgets: tuple[int, ...] = DEFAULT_BUDGETS
    seedings: tuple[str, ...] = SEEDINGS
    tokenizer: str = "o200k_base"
    hops: int = 2
    direction: str = "both"
    shuffle_seed: int = 0
    count_grammar: bool = True


@dataclass(frozen=True)
class SuiteInputs:
    """What every task reads (sent to each worker once)."""

    graph: Graph
    settings: SuiteSettings
    queries: tuple[tuple[str, Query], ...]  # (question id, query)
    seeds: tuple[tuple[str, str, tuple[str, ...]], ...]  # (question id, seeding, seed node ids)


@dataclass(frozen=True)
class SuiteTask:
    """Question-independent orderings of one format, or the seeded orderings of one seed set."""

    kind: str  # "shared" or "seeded"
    formats: tuple[str, ...]
    orderings: tuple[str, ...]
    seed_ids: tuple[str, ...] = ()
    members: tuple[tuple[str, str], ...] = ()  # seeded: (question id, seeding) pairs with this seed set

    @property
    def label(self) -> str:
        return f"{self.formats[0]}, shared orderings" if self.kind == "shared" else \
            f"seeds {', '.join(self.seed_ids) or '(none)'}"


@dataclass(frozen=True)
class SuiteResult:
    rows: pd.DataFrame  # one row per question, seeding and cut
    questions: pd.DataFrame  # one row per question: text, type, hop depth, seeds both ways, ground truth check
    settings: SuiteSettings
    task_cpu_seconds: float = 0.0  # CPU seconds the tasks took, summed over wherever they ran
    # the questions of the set left out because their answer on the graph is empty, with the reason
    left_out: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=LEFT_OUT_COLUMNS))

    @property
    def headline(self) -> str:
        """How many questions were measured: '10 questions', or '8 of 10 questions; 2 have no answer on this
        graph, left out'."""
        return counted_questions(len(self.questions) + len(self.left_out), len(self.left_out))


def settings_for(formats: Sequence[str] | None = None, orderings: Sequence[str] | None = None, *,
                 layouts: Sequence[str] = LAYOUTS, policies: Sequence[str] = DEFAULT_POLICIES,
                 budgets: Sequence[int] = DEFAULT_BUDGETS, seedings: Sequence[str] = SEEDINGS,
                 tokenizer: str = "o200k_base", hops: int = 2, direction: str = "both", shuffle_seed: int = 0,
                 count_grammar: bool = True) -> SuiteSettings:
    """Checked settings: every name known, at least one of each."""
    for name in formats or ():
        FORMATS.get(name)
    for name in orderings or ():
        ORDERINGS.get(name)
    TOKENIZERS.get(tokenizer)
    unknown = [seeding for seeding in seedings if seeding not in SEEDINGS]
    if unknown or not seedings:
        raise ParameterError(f"unknown seeding(s) {unknown or '(none given)'}", "seedings",
                             f"use one or both of: {', '.join(SEEDINGS)}")
    if not budgets:
        raise ParameterError("no budget was given", "budgets", "give at least one budget, e.g. 512,1024,4096")
    return SuiteSettings(tuple(formats or FORMATS.names()), tuple(orderings or ORDERINGS.names()),
                         tuple(check_layout(layout) for layout in layouts),
                         tuple(check_policy(policy) for policy in policies), tuple(int(b) for b in budgets),
                         tuple(seedings), tokenizer, hops, direction, shuffle_seed, count_grammar)


def suite_inputs(graph: Graph, question_set: QuestionSet, settings: SuiteSettings) -> SuiteInputs:
    seeds = tuple((question.id, seeding, question_seeds(graph, question, seeding).node_ids)
                  for question in question_set for seeding in settings.seedings)
    return SuiteInputs(graph, settings, tuple((question.id, question.query) for question in question_set), seeds)


def plan(inputs: SuiteInputs) -> list[SuiteTask]:
    """The suite's tasks: one per format for the shared orderings, one per distinct seed set."""
    settings = inputs.settings
    orderings = [ORDERINGS.get(name) for name in settings.orderings]
    shared = tuple(o.name for o in orderings if not o.uses_seeds and not o.per_query)
    seeded = tuple(o.name for o in orderings if o.uses_seeds)
    # per question without seeds: evidence_first, and question_bm25 (ranked by each question's text)
    evidence = tuple(o.name for o in orderings if o.per_query and not o.uses_seeds)
    tasks = [SuiteTask("shared", (name,), shared) for name in settings.formats] if shared else []
    groups: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    for question_id, seeding, seed_ids in inputs.seeds:
        groups.setdefault(seed_ids, []).append((question_id, seeding))
    for seed_ids, members in groups.items():
        chosen = (seeded if seed_ids else ()) + evidence  # no seeds: the seed orderings cannot run
        if chosen:
            tasks.append(SuiteTask("seeded", settings.formats, chosen, seed_ids, tuple(members)))
    return tasks


def run_task(inputs: SuiteInputs, task: SuiteTask) -> pd.DataFrame:
    """One task's rows (every seeding it serves), in the suite's columns; its CPU seconds in `attrs`."""
    started = time.process_time()  # measured where the task runs: a pool worker or a Ray worker
    frame = _task_rows(inputs, task)
    frame.attrs["cpu_seconds"] = time.process_time() - started
    return frame


def _task_rows(inputs: SuiteInputs, task: SuiteTask) -> pd.DataFrame:
    settings = inputs.settings
    queries = dict(inputs.queries)
    cache = rendering_cache(DEFAULT_CACHE_BYTES)  # the task's renderings, shared by its sweep and its seed columns
    if task.kind == "seeded":
        wanted = list(dict.fromkeys(question_id for question_id, _ in task.members))
        frame = _sweep(inputs, {question_id: queries[question_id] for question_id in wanted}, task, task.seed_ids,
                       cache)
        by_question = dict(tuple(frame.groupby("query", sort=False)))
        parts = [by_question[question_id].assign(seeding=seeding) for question_id, seeding in task.members]
        return _suite_columns(pd.concat(parts, ignore_index=True))
    frame = _sweep(inputs, queries, task, (), cache)
    seeds_by_question: dict[str, dict[str, tuple[str, ...]]] = {}
    for question_id, seeding, seed_ids in inputs.seeds:
        seeds_by_question.setdefault(seeding, {})[question_id] = seed_ids
    parts = [_with_seed_columns(frame.assign(seeding=seeding), inputs.graph, settings, seeds_by_question[seeding],
                                cache) for seeding in settings.seedings]
    return _suite_columns(pd.concat(parts, ignore_index=True))


def _sweep(inputs: SuiteInputs, queries: dict[str, Query], task: SuiteTask, seed_ids: tuple[str, ...],
           cache: RenderingCache) -> pd.DataFrame:
    settings = inputs.settings
    spec = SweepSpec.from_names(inputs.graph, queries, seeds=Seeds(seed_ids), format_names=task.formats,
                                ordering_names=task.orderings, layouts=settings.layouts,
                                policy_names=settings.policies, budgets=settings.budgets,
                                tokenizer_name=settings.tokenizer, hops=settings.hops, direction=settings.direction,
                                shuffle_seed=settings.shuffle_seed, count_grammar=settings.count_grammar)
    return sweep(spec, cache=cache, workers=1)  # the suite's engine spreads the tasks; a task runs in its worker


def _with_seed_columns(frame: pd.DataFrame, graph: Graph, settings: SuiteSettings,
                       seeds_of: dict[str, tuple[str, ...]], cache: RenderingCache) -> pd.DataFrame:
    """The seed-dependent columns of question-independent rows, recomputed for each question's seeds."""
    encoder = TOKENIZERS.get(settings.tokenizer)
    frame = frame.copy()
    no_seeds = seed_region(graph, (), settings.direction)
    regions: dict[tuple[str, ...], SeedRegion] = {}
    coverage: dict[tuple, int] = {}
    candidate_total = np.zeros(len(frame), dtype=np.int64)
    recall = np.full(len(frame), np.nan)
    coverage_column = pd.array([pd.NA] * len(frame), dtype="Int64")
    full_recall = pd.array([pd.NA] * len(frame), dtype="Int64")
    for (question_id, format_name, ordering_name, layout), index in frame.groupby(
            ["query", "format", "ordering", "layout"], sort=False).indices.items():
        seed_ids = seeds_of[question_id]
        if not seed_ids:
            continue
        format_ = FORMATS.get(format_name)
        if seed_ids not in regions:
            regions[seed_ids] = seed_region(graph, seed_ids, settings.direction)
        region = regions[seed_ids]
        candidates = region.candidate_keys(settings.hops)
        ordering = ORDERINGS.get(ordering_name)
        inputs = inputs_for(ordering, (), shuffle_seed=settings.shuffle_seed, direction=settings.direction)
        accounting = accounted_rendering(RenderingSpec(graph, format_, ordering, layout, inputs, encoder),
                                         region=no_seeds, cache=cache)
        positions = np.sort(np.array([accounting.record_of_key.get(key, np.iinfo(np.int64).max)
                                      for key in candidates], dtype=np.int64))
        kept = frame["records_kept"].to_numpy()[index]
        candidate_total[index] = len(candidates)
        recall[index] = np.searchsorted(positions, kept, side="left") / len(candidates) if len(candidates) else 1.0
        key = (seed_ids, format_name, layout)
        if key not in coverage:
            coverage[key] = coverage_tokens(region, format_, settings.hops, encoder, layout=layout,
                                            count_grammar=settings.count_grammar)
        coverage_column[index] = coverage[key]
        extra = grammar_tokens(format_, encoder) if settings.count_grammar else 0
        full_recall[index] = full_recall_budget(accounting, candidates, extra)
    frame["candidate_total"], frame["candidate_recall"] = candidate_total, recall
    frame["coverage_tokens"], frame["full_recall_budget"] = coverage_column, full_recall
    return frame


def _suite_columns(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.rename(columns={"query": "question_id"})
    frame["query_type"], frame["hop_depth"] = "", pd.NA  # filled from the question set by run_suite
    return frame[ROW_COLUMNS]


def run_suite(graph: Graph, question_set: QuestionSet, settings: SuiteSettings, *, engine: str = "local",
              workers: int | None = None, ray_address: str | None = None,
              progress: Progress | None = None) -> SuiteResult:
    """Every task on the engine; rows sorted by question, seeding and cut (the same on every engine). Only the
    questions with an answer on the graph are run (ParameterError when none has one); the rest are listed in
    `left_out`."""
    split = answered_split(graph, question_set)
    everything, question_set = question_set, split.measured
    inputs = suite_inputs(graph, question_set, settings)
    tasks = plan(inputs)
    report = None if progress is None else (lambda done, total: progress(done, total, "tasks"))
    frames = run_tasks(run_task, inputs, tasks, engine=engine, workers=workers, ray_address=ray_address,
                       progress=report)
    cpu_seconds = sum(frame.attrs.get("cpu_seconds", 0.0) for frame in frames)
    rows = pd.concat(frames, ignore_index=True)
    rows.attrs = {}
    questions = question_table(graph, question_set, inputs)
    labels = questions.set_index("question_id")
    rows["query_type"] = rows["question_id"].map(labels["query_type"])
    rows["hop_depth"] = rows["question_id"].map(labels["hop_depth"]).astype("Int64")
    order = {question.id: position for position, question in enumerate(question_set)}
    rows = rows.sort_values(SORT_KEY, key=lambda column: column.map(order) if column.name == "question_id" else column,
                            kind="stable").reset_index(drop=True)
    rows.attrs["parameters"] = {"graph_hash": graph.sha256, "question_set": question_set.name,
                                "source": question_set.source, "questions": len(question_set),
                                "questions_in_set": len(everything),
                                "left_out": [each.question.id for each in split.left_out],
                                **{key: list(value) if isinstance(value, tuple) else value
                                   for key, value in settings.__dict__.items()}}
    return SuiteResult(rows, questions, settings, cpu_seconds, left_out_table(split))


def left_out_table(split: AnsweredSplit) -> pd.DataFrame:
    """One row per question left out of the measures: id, text, type, template and why (`no_answer_reason`)."""
    return pd.DataFrame([{"question_id": each.question.id, "question": each.question.text,
                          "query_type": each.question.type_label, "template": each.question.query.name,
                          "reason": each.reason} for each in split.left_out], columns=LEFT_OUT_COLUMNS)


def question_table(graph: Graph, question_set: QuestionSet, inputs: SuiteInputs) -> pd.DataFrame:
    """Per question: text, template, type, hop depth, both seedings, the ground-truth check, and how a question
    given by its text alone was read (`read_as`, "" for the others)."""
    seeds = {(question_id, seeding): seed_ids for question_id, seeding, seed_ids in inputs.seeds}
    rows = []
    for question in question_set:
        check = check_ground_truth(question, graph)
        row = {"question_id": question.id, "question": question.text, "template": question.query.name,
               "query_type": question.type_label, "hop_depth": question.hop_depth,
               "annotation_seeds": ", ".join(question.annotation_seeds)}
        for seeding in SEEDINGS:
            seed_ids = seeds.get((question.id, seeding))
            row[f"{seeding}_seeds"] = None if seed_ids is None else ", ".join(seed_ids)
        row["ground_truth"], row["ground_truth_detail"] = check.status, check.detail
        row["read_as"] = dict(question.metadata).get(READ_AS, "")  # a free-text question: how it was read
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["hop_depth"] = frame["hop_depth"].astype("Int64")
    return frame


def unseeded_questions(questions: pd.DataFrame, seeding: str) -> pd.DataFrame:
    """The questions that have no seeds by this seeding (text naming no node, or a query naming none)."""
    column = f"{seeding}_seeds"
    return questions[questions[column].fillna("") == ""][["question_id", "question", "query_type"]]
