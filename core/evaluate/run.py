"""An evaluation run: every context x trial as one request, sent concurrently, stored, scored, resumable.

The caller supplies the contexts (the sweep's cuts, each with its query, coordinates and traversal
accuracy); this module writes each prompt with the frame, keys it by content (identical prompts are
one request), skips what the store has already answered, sends the rest through a bounded pool of
workers, and records every answer and result row from one writer thread as soon as it arrives.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

from core.errors import ParameterError
from core.evaluate.client import ChatClient, Endpoint, Exchange
from core.evaluate.scoring import AnswerScore, normalise_answer, score_answer
from core.evaluate.store import Cell, RunStore, new_run_id, request_key
from core.formats import FORMATS
from core.graph.model import Graph
from core.prompt.answers import AnswerSchema, schema_for
from core.prompt.context import Context
from core.prompt.frame import FRAME_VERSION, TEMPLATE, PromptParts, fill, frame_tokens
from core.prompt.pricing import PriceTable
from core.queries import Query
from core.tokens import TOKENIZERS

MAX_TRIALS = 1_000  # repeated trials of one context: enough for any variance estimate
MAX_CONCURRENCY = 256


@dataclass(frozen=True)
class RequestCounter:
    """The prompt tokens of a whole request as the reading model counts them, and what counts them."""

    name: str  # e.g. "gguf:/path/model.gguf chat template"
    count: Callable[[list[dict]], int] = field(repr=False, compare=False)


@dataclass(frozen=True)
class RunSettings:
    endpoint: Endpoint
    trials: int = 1
    concurrency: int = 4
    tokenizer: str = "o200k_base"
    prices: PriceTable = field(default_factory=PriceTable)
    # How the question names nodes: "labels" (a node's label property where it has one, as a person
    # asks; the CKG questions do) or "ids". With labels a reader must find the named node's record
    # in the context to link label and id.
    question_names: str = "labels"
    # Counts a whole request with the reading model's own tokenizer and chat template (None: the model's is not
    # known, and prompt_tokens_counted is the run tokenizer's count of the message text)
    request_counter: RequestCounter | None = None

    def __post_init__(self) -> None:
        if self.trials < 1 or self.concurrency < 1:
            raise ParameterError(f"trials={self.trials}, concurrency={self.concurrency}", "run settings",
                                 "use at least one trial and one worker")
        if self.trials > MAX_TRIALS or self.concurrency > MAX_CONCURRENCY:
            raise ParameterError(f"trials={self.trials:,}, concurrency={self.concurrency:,}: too many", "run settings",
                                 f"use at most {MAX_TRIALS:,} trials and {MAX_CONCURRENCY:,} workers (a billion "
                                 "trials were once planned in memory before the first request)")
        if self.question_names not in ("labels", "ids"):
            raise ParameterError(f"question_names={self.question_names!r}", "run settings", "use labels or ids")


@dataclass
class Progress:
    """Counts while a run goes on: distinct requests done of total, of which cached (answered before) and
    failed, and the cost of the answers so far (cached ones included) by the run's price table."""

    total: int = 0
    done: int = 0
    cached: int = 0
    failed: int = 0
    cost: float = 0.0
    cost_unknown: int = 0  # answers without reported usage: their cost is not estimated
    stopped: bool = False
    first_failure: str = ""  # the reason the first failed request gave (all are in the store)

    @property
    def sent(self) -> int:
        return self.done - self.cached


@dataclass(frozen=True)
class Planned:
    cell: Cell
    schema: AnswerSchema
    gold_answer: object
    messages: tuple[dict, ...]
    body: dict
    answer_schema: dict  # the JSON Schema sent as constrained output when the endpoint asks for it


def query_key(query: Query) -> str:
    return query.name + json.dumps(dict(query.arguments), sort_keys=True, ensure_ascii=False, default=list)


def plan(graph: Graph, contexts: Iterable[Context], settings: RunSettings, run_id: str) -> list[Planned]:
    """Every request of the run, in order: contexts x trials."""
    tokenizer = TOKENIZERS.get(settings.tokenizer)
    golds: dict[str, tuple[object, AnswerSchema, str]] = {}  # query key -> answer, schema, normalised JSON
    fixed: dict[tuple[str, str], tuple[int, int]] = {}  # (question, format) -> frame and grammar tokens
    planned = []
    for context in contexts:
        key = query_key(context.query)
        if key not in golds:
            gold_answer = context.query.solve(graph).answer
            schema = schema_for(context.query.name, gold_answer)
            fields = json.dumps(normalise_answer(schema, schema.fields_of(gold_answer)), ensure_ascii=False)
            golds[key] = (gold_answer, schema, fields)
        gold_answer, schema, gold_fields = golds[key]
        format_ = FORMATS.get(context.format)
        question = context.query.question_on(graph) if settings.question_names == "labels" else context.query.question
        parts = PromptParts(schema.example_json(), question, format_.name, format_.grammar, context.text)
        text = fill(parts)
        if (question, format_.name) not in fixed:
            fixed[question, format_.name] = (frame_tokens(parts, tokenizer), tokenizer.count(format_.grammar))
        frame_count, grammar_count = fixed[question, format_.name]
        messages = ({"role": "user", "content": text},)
        # The lab's own count of what the reader reads: the whole request under the reading model's chat template
        # when its tokenizer is known (equal to llama.cpp's prompt_tokens for a GGUF model), else the message text.
        total = settings.request_counter.count(list(messages)) if settings.request_counter else tokenizer.count(text)
        answer_schema = schema.json_schema()
        body = settings.endpoint.request_body(list(messages), answer_schema)
        for trial in range(settings.trials):
            cell = Cell(run_id, graph.sha256, context.query.name, key, context.format, context.ordering,
                        context.layout, context.policy, context.budget_tokens, trial, settings.tokenizer,
                        context.context_tokens, grammar_count, frame_count, total, context.traversal_accuracy,
                        request_key(settings.endpoint.base_url, body, trial), gold_fields, context.question_id,
                        context.query_type or context.query.name, context.hop_depth, context.evidence_complete)
            planned.append(Planned(cell, schema, gold_answer, messages, body, answer_schema))
    return planned


def scores_of(score: AnswerScore) -> dict:
    """The stored score columns of a result row."""
    affected = score.field("affected_services")
    owners = score.field("owners")
    return {
        "parse_success": int(score.parse_success),
        "parse_error": score.parse_error,
        "exact_match": int(score.exact_match),
        "affected_services_f1": affected.f1 if affected else None,
        "owners_exact_match": int(owners.exact) if owners else None,
        "field_scores": json.dumps({item.name: {"kind": item.kind, "exact": item.exact, "precision": item.precision,
                                                "recall": item.recall, "f1": item.f1} for item in score.fields}),
        "answer": json.dumps(score.answer, ensure_ascii=False) if score.answer is not None else None,
    }


def _record(store: RunStore, items: list[Planned], content: str | None, answered: bool) -> None:
    for item in items:
        scores = scores_of(score_answer(item.schema, content, item.gold_answer)) if answered else {}
        store.save_cell(item.cell, scores)


def evaluate(graph: Graph, contexts: Iterable[Context], settings: RunSettings, store: RunStore, *,
             client: ChatClient | None = None, run_id: str | None = None, extra_settings: Mapping | None = None,
             progress: Callable[[Progress], None] | None = None,
             should_stop: Callable[[], bool] | None = None) -> tuple[str, Progress]:
    """Run (or resume) an evaluation; returns the run id and the final counts.

    Requests the store has already answered are not sent; their rows are written at once as cached.
    `should_stop` is polled after each answer: when it says so, queued requests are dropped and the
    ones in flight are still recorded.
    """
    run_id = run_id or new_run_id()
    planned = plan(graph, contexts, settings, run_id)
    by_key: dict[str, list[Planned]] = {}
    for item in planned:
        by_key.setdefault(item.cell.request_key, []).append(item)
    store.add_run(run_id, FRAME_VERSION, TEMPLATE,
                  {**settings.endpoint.settings(), "trials": settings.trials, "concurrency": settings.concurrency,
                   "tokenizer": settings.tokenizer, "question_names": settings.question_names,
                   "prompt_tokens_counted_by": settings.request_counter.name if settings.request_counter else
                   f"{settings.tokenizer} (the message text)",
                   "graph_hash": graph.sha256, **dict(extra_settings or {})},
                  settings.prices.to_json())
    counts = Progress(total=len(by_key))
    for key in store.answered_keys(set(by_key)):
        row = store.answer(key)
        assert row is not None, "answered_keys lists only keys the store holds an answer for"
        _record(store, by_key.pop(key), row["content"], True)
        counts.done += 1
        counts.cached += 1
        _add_cost(counts, settings.prices, row["prompt_tokens_reported"], row["completion_tokens_reported"])
    if progress:
        progress(counts)
    if by_key:
        owned = client is None
        client = client or ChatClient(settings.endpoint)
        try:
            _send(client, by_key, settings, store, counts, progress, should_stop)
        finally:
            if owned:
                client.close()
    return run_id, counts


def _add_cost(counts: Progress, prices: PriceTable, prompt: int | None, completion: int | None) -> None:
    cost = prices.cost(prompt, completion)
    if cost is None:
        counts.cost_unknown += 1
    else:
        counts.cost += cost


def _send(client: ChatClient, by_key: dict[str, list[Planned]], settings: RunSettings, store: RunStore,
          counts: Progress, progress, should_stop) -> None:
    with ThreadPoolExecutor(max_workers=settings.concurrency, thread_name_prefix="evaluate") as pool:
        futures: dict[Future, str] = {pool.submit(client.complete, list(items[0].messages), items[0].answer_schema): key
                                      for key, items in by_key.items()}
        try:
            _collect(futures, by_key, settings, store, counts, progress, should_stop)
        finally:
            # Interrupted (a progress callback raised, e.g. the dashboard's stop): send nothing more.
            for pending in futures:
                pending.cancel()


def _collect(futures: dict[Future, str], by_key: dict[str, list[Planned]], settings: RunSettings, store: RunStore,
             counts: Progress, progress, should_stop) -> None:
    endpoint = settings.endpoint
    for future in as_completed(futures):
        if future.cancelled():
            continue
        key = futures[future]
        exchange: Exchange = future.result()
        store.save_answer(key, endpoint.model, endpoint.base_url, exchange)
        _record(store, by_key[key], exchange.content, exchange.answered)
        counts.done += 1
        if exchange.answered:
            _add_cost(counts, settings.prices, exchange.prompt_tokens_reported, exchange.completion_tokens_reported)
        else:
            counts.failed += 1
            counts.first_failure = counts.first_failure or exchange.failure_reason
        if progress:
            progress(counts)
        if should_stop and not counts.stopped and should_stop():
            counts.stopped = True
            for pending in futures:
                pending.cancel()  # only queued ones cancel; those in flight finish and are recorded
