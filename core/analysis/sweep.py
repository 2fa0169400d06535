"""Sweeps: every (query, format, ordering, layout, policy, budget) cut of one graph, as a tidy DataFrame.

`sweep(...)` renders each (format, ordering, layout) once, accounts its tokens once (cached by graph
content key, format, ordering and tokenizer), cuts it at every budget under every policy, decodes
each cut once and measures it for every query: one row per cut and query (with the seeds' share of the
cut, its rank inversions, and its whole request's tokens for the reader: `core.analysis.request_fit`).
Layouts a format cannot show are skipped (a format with separate node and edge sections only has `nodes_then_edges`), and
`evidence_first` is rendered once per query, since its order comes from that query's evidence.

`rendering_summary(...)` describes the untruncated renderings: bytes, characters, tokens, grammar
tokens, round trip and traversal accuracy per format; `cheapest_lossless(...)` names the cheapest exact one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from cachetools import LRUCache

from core.analysis.answering_budget import answering_budget, needed_budgets
from core.analysis.request_fit import RequestReader, request_reader
from core.budget.policies import Cut, cut, grammar_tokens
from core.budget.sections import DEFAULT_SECTIONS, Sections
from core.errors import DecodeMismatchError, ParameterError
from core.execution.workers import check_workers, fewer_collections, in_worker_process, run_tasks
from core.formats import FORMATS
from core.formats.base import Format
from core.graph.kept import NEVER, KeptGraph, UnitPositions, graph_keys, image_positions, positions_for
from core.graph.model import Graph
from core.graph.units import Unit
from core.memory.rendering_cache import RenderingCache
from core.metrics.coverage import SeedRegion, coverage_tokens, seed_region
from core.metrics.cut_metrics import (
    CutMetrics,
    DecodedCut,
    KeptKeys,
    answers,
    cut_metrics,
    decode_cut,
    kept_cut,
    measure_cut,
)
from core.metrics.cut_reading import document_identity, image_cut, tail_reading
from core.metrics.placement import PLACEMENT_COLUMNS, placement_columns
from core.metrics.rank_order import rank_inversions
from core.metrics.rendering_figures import measure_format
from core.metrics.seed_share import seed_token_share
from core.pipeline import accounted_rendering
from core.prompt.answers import schema_for
from core.prompt.whole_request import WholeRequest, frame_head
from core.queries import Query, Solution
from core.retrieval import ORDERINGS
from core.retrieval.ordering import (
    Ordering,
    OrderingInputs,
    inputs_for,
    layouts_for,
    order_units,
)
from core.specs import RenderingSpec, SweepSpec, named_queries
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import PrefixTokens

NO_READER = RequestReader(None, None, None, "request_tokens and within_window are empty: no reader was given")
DOCUMENTS_KEPT = 64  # decoded texts remembered across the renderings of one format
ANSWERS_KEPT = 2048  # kept sets whose answers are remembered across renderings (each holds its unit indices)

Progress = Callable[[int, int, str], None]  # (cuts done, cuts in total, what is being cut)


def sweep(spec: SweepSpec, *, progress: Progress | None = None, cache: RenderingCache | None = None,
          workers: int | None = None, verify: bool = False, metrics_from: str = "kept") -> pd.DataFrame:
    """Cut every rendering at every budget and measure every query: one row per (cut, query).

    The spec's settings are kept in `DataFrame.attrs["parameters"]`.

    `workers` processes render and cut the (format, ordering, layout) renderings (None: every core,
    but in this process for a graph below POOL_MIN_UNITS units, where starting a pool costs more than
    it saves, and inside a pool's worker, whose pool already uses the cores; 1: in this process). The rows are the
    same, in the same order, for any worker count. `cache` (a workbench's) serves the renderings made in this process.

    `metrics_from="kept"` reads each cut's graph from its kept unit keys (`core.metrics.cut_metrics.kept_cut`);
    `"decoded"` decodes every cut's text instead (the proof, and the path before kept units).
    `verify=True` computes every metric both ways and raises a DecodeMismatchError naming the first
    cell where they differ.
    """
    if metrics_from not in METRIC_SOURCES:
        raise ParameterError(f"unknown metric source {metrics_from!r}", "metrics_from",
                             f"use one of: {', '.join(METRIC_SOURCES)}")
    with fewer_collections():
        return _sweep(spec, progress, cache, workers, verify, metrics_from)


def _sweep(spec: SweepSpec, progress: Progress | None, cache: RenderingCache | None, workers: int | None, verify: bool,
           metrics_from: str) -> pd.DataFrame:
    """`sweep`'s body, run with fewer garbage collections."""
    graph, named, seed_ids, tokenizer = spec.graph, spec.named_queries, spec.seeds, spec.tokenizer.name
    format_list, ordering_list, layout_list, policy_list = spec.formats, spec.orderings, spec.layouts, spec.policies
    budget_list, hops, direction, radius, shuffle_seed = (spec.budgets, spec.hops, spec.direction, spec.radius,
                                                          spec.shuffle_seed)
    requested = check_workers(workers)
    region = seed_region(graph, seed_ids, direction)
    gold = {name: query.solve(graph) for name, query in named.items()}
    questions = {name: query.question_on(graph) for name, query in named.items()}  # nodes named by label
    plan = _Plan(graph, named, gold, questions, region.candidate_keys(hops), seed_ids, region, tuple(policy_list),
                 budget_list, tokenizer, hops, direction, radius, shuffle_seed, spec.count_grammar, spec.marker,
                 verify, metrics_from, spec.sections, request_reader(spec.reader, tokenizer))
    # One task per format (its renderings share the format's record memo), in the plan's order.
    tasks = [(format_.name, tuple((layout, ordering.name, tuple(group)) for layout in layouts_for(format_)
                                  if layout in layout_list for ordering in ordering_list
                                  for group in ([[name] for name in named] if ordering.per_query else [list(named)])))
             for format_ in format_list]
    per_cut = len(policy_list) * len(budget_list)
    weights = [per_cut * sum(len(group) for _, _, group in renderings) for _, renderings in tasks]
    total = sum(weights)
    small = workers is None and (len(graph.nodes) + len(graph.edges) < POOL_MIN_UNITS or in_worker_process())
    if requested == 1 or small or len(tasks) <= 1:
        rows: list[tuple] = []
        for task in tasks:
            def report(count: int, label: str, done: int = len(rows)) -> None:
                if progress is not None:
                    progress(done + count, total, label)

            rows += _format_rows(plan, task, cache, report)
    else:
        for _, renderings in tasks:  # order once here, before the workers fork, rather than once per worker
            for layout, ordering_name, group in renderings:
                _ordered(plan, ORDERINGS.get(ordering_name), layout, group)
        graph_keys(graph)  # unit keys and endpoints, shared by every rendering: inherited by the workers
        TOKENIZERS.get(tokenizer).encode("")  # the tokenizer's tables, built once here rather than in each worker
        # One pool task per rendering, so the workers end together; the tasks of one format are a group,
        # which one worker runs in a row (its record memo and decoded cuts serve all of them) unless the
        # other worker would otherwise wait.
        pooled = [(name, (rendering,)) for name, renderings in tasks for rendering in renderings]
        pooled_weights = [per_cut * sum(len(group) for _, _, group in renderings) for _, renderings in pooled]

        def finished(done: int, _: int, index: int) -> None:
            if progress is not None:
                progress(done, total, pooled[index][0])

        parts = run_tasks(_pooled_rows, pooled, workers=requested, progress=finished, weights=pooled_weights,
                          initializer=_adopt_plan, initargs=(plan,), groups=[name for name, _ in pooled],
                          costs=[weight * _cost_factor(FORMATS.get(name)) for (name, _), weight
                                 in zip(pooled, pooled_weights)])
        rows = [row for part in parts for row in part]
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame.insert(0, "graph_hash", graph.sha256)
    frame.insert(1, "tokenizer", tokenizer)
    frame.insert(2, "hops", hops)
    if not seed_ids:  # without seeds there is no candidate region to recall
        frame["candidate_recall"] = float("nan")
    for column in ("shuffle_seed", "coverage_tokens", "full_recall_budget", "first_dropped_record", "next_tokens",
                   "request_tokens"):
        frame[column] = frame[column].astype("Int64")  # whole numbers that may be missing
    frame["within_window"] = frame["within_window"].astype("boolean")  # empty where no window is recorded
    frame.attrs["parameters"] = {
        "seeds": list(seed_ids), "direction": direction, "hops": hops, "radius": radius,
        "shuffle_seed": shuffle_seed, "count_grammar": spec.count_grammar, "marker": spec.marker,
        "budgets": list(budget_list), "sections": spec.sections.describe(),
        "tokenizer": tokenizer, "graph_hash": graph.sha256, "queries": questions, **plan.reader.describe()}
    return frame


def _cost_factor(format_: Format) -> int:
    """A rough estimate of a format's cost per row, only for the order pool tasks start in (costliest first):
    a lossy format decodes every cut, a format without a tail check decodes its raw cuts whole."""
    return 3 if not format_.lossless else 1 if format_.tail_start is not None else 2


METRIC_SOURCES = ("kept", "decoded")
# Below this many units (nodes + edges) a whole sweep takes about as long as starting a pool of workers.
POOL_MIN_UNITS = 2_000

COLUMNS = [
    "query", "template", "question", "format", "lossless", "ordering", "oracle", "layout", "shuffle_seed", "policy",
    "budget", "tokens", "grammar_tokens", "budgeted_tokens", "bytes", "characters", "records_kept", "records_total",
    "parse_ok", "nodes_retained", "edges_retained", "evidence_total", "evidence_kept", "evidence_survival",
    "evidence_complete", "traversal_accuracy", "candidate_total", "candidate_recall", "coverage_tokens",
    "full_recall_budget", "answering_budget", "first_dropped_record", "first_dropped_keys", "next_tokens", "empty",
    "explanation", "decode_error", *PLACEMENT_COLUMNS, "seed_token_share", "rank_inversions", "request_tokens",
    "within_window",
]


@dataclass(frozen=True, eq=False)
class _Plan:
    """What every rendering of one sweep needs (sent to each worker process once)."""

    graph: Graph
    named: dict[str, Query]
    gold: dict[str, Solution]
    questions: dict[str, str]
    candidates: frozenset[str]
    seed_ids: tuple[str, ...]
    region: SeedRegion
    policies: tuple[str, ...]
    budgets: tuple[int, ...]
    tokenizer: str
    hops: int
    direction: str
    radius: int | None
    shuffle_seed: int
    count_grammar: bool
    marker: bool
    verify: bool
    metrics_from: str
    sections: Sections = DEFAULT_SECTIONS  # the shares of the sections policy
    reader: RequestReader = NO_READER  # whose whole requests the rows count
    coverage: dict = field(default_factory=dict, repr=False)  # (format, layout) -> D_k(S), filled as met
    # (format, document) -> what decoding it gave, for the last few texts decoded: orderings that begin
    # alike cut to the same text at small budgets, and decoding depends on the text alone.
    documents: LRUCache = field(default_factory=lambda: LRUCache(DOCUMENTS_KEPT), repr=False)
    orders: dict = field(default_factory=dict, repr=False)  # (ordering, layout, queries) -> ordered units
    # ((units kept, sum of their marks), query) -> ((kept unit indices, whether the view answers), ...): views
    # that keep the same units are the same graph, in whichever format (`_shared_answer`); the last few kept
    answered: LRUCache = field(default_factory=lambda: LRUCache(ANSWERS_KEPT), repr=False)
    indices: dict = field(default_factory=dict, repr=False)  # key set name -> unit indices (`_indices`)
    requests: dict = field(default_factory=dict, repr=False)  # (query, format) -> WholeRequest, built as met


def _inputs(plan: _Plan, ordering: Ordering, group: Sequence[str]) -> OrderingInputs:
    return inputs_for(ordering, plan.seed_ids, evidence=plan.gold[group[0]].evidence,
                      question=plan.questions[group[0]], shuffle_seed=plan.shuffle_seed, direction=plan.direction)


def _order_key(ordering: Ordering, layout: str, group: Sequence[str]) -> tuple:
    return (ordering.name, layout, tuple(group) if ordering.per_query else ())


def _ordered(plan: _Plan, ordering: Ordering, layout: str, group: Sequence[str]) -> tuple[Unit, ...]:
    """The units in this ordering and layout, computed once per sweep for every format."""
    key = _order_key(ordering, layout, group)
    if key not in plan.orders:
        units = plan.region.units if plan.radius is None else plan.region.candidates(plan.radius)
        plan.orders[key] = tuple(order_units(plan.graph, units, ordering, layout, _inputs(plan, ordering, group)))
    return plan.orders[key]


_WORKER_PLAN: list[_Plan] = []  # in a worker process: the plan of the sweep it serves


def _adopt_plan(plan: _Plan) -> None:
    _WORKER_PLAN[:] = [plan]


def _pooled_rows(task: tuple) -> list[tuple]:
    return _format_rows(_WORKER_PLAN[0], task, None, None)  # a worker's cache would end with it, unused


def _format_rows(plan: _Plan, task: tuple, cache: RenderingCache | None,
                 report: Callable[[int, str], None] | None) -> list[tuple]:
    """Every row of one format (as a tuple in COLUMNS order): each of its (layout, ordering, queries) renderings."""
    format_name, renderings = task
    rows: list[tuple] = []
    for layout, ordering_name, group in renderings:
        label = f"{format_name} / {ordering_name} / {layout}"
        for row in _rendering_rows(plan, format_name, layout, ordering_name, group, cache):
            rows.append(tuple(row[column] for column in COLUMNS))
            if report is not None:
                report(len(rows), label)
    return rows


def _rendering_rows(plan: _Plan, format_name: str, layout: str, ordering_name: str, group: Sequence[str],
                    cache: RenderingCache | None) -> Iterable[dict]:
    """Every row of one (format, layout, ordering) rendering: render, account, cut and measure."""
    format_, ordering, encoder = FORMATS.get(format_name), ORDERINGS.get(ordering_name), TOKENIZERS.get(plan.tokenizer)
    if (format_name, layout) not in plan.coverage:
        plan.coverage[format_name, layout] = coverage_tokens(
            plan.region, format_, plan.hops, encoder, layout=layout,
            count_grammar=plan.count_grammar) if plan.seed_ids else None
    inputs = _inputs(plan, ordering, group)
    spec = RenderingSpec(plan.graph, format_, ordering, layout, inputs, encoder, plan.radius)
    accounting = accounted_rendering(spec, region=plan.region, cache=cache,
                                     ordered=_ordered(plan, ordering, layout, group))
    # When the records carry each unit of the graph once, the positions' arrays answer what per-key
    # lookups would (record positions of the candidates and the evidence, counts per prefix).
    positions = positions_for(accounting.rendering, plan.graph, accounting.record_of_key)
    arrays = positions if _each_unit_once(accounting, positions) else None
    candidate_positions = (np.sort(arrays.records_of(_indices(plan, "candidates", plan.candidates)))
                           if arrays is not None else _sorted_positions(plan.candidates, accounting.record_of_key))
    extra = grammar_tokens(format_, encoder) if plan.count_grammar else 0
    context = {
        "format": format_.name, "lossless": format_.lossless, "ordering": ordering.name,
        "oracle": ordering.oracle, "layout": layout,
        "shuffle_seed": plan.shuffle_seed if ordering.uses_shuffle_seed else None,
        "coverage_tokens": plan.coverage[format_name, layout],
        "full_recall_budget": _full_recall_from(accounting, candidate_positions, extra) if plan.seed_ids else None}
    rows = list(_cut_rows(plan, accounting, format_, group, ordering.name, layout, arrays, candidate_positions))
    answering = _answering_budgets(plan, accounting, format_, positions, rows, extra, arrays is not None)
    for row in rows:
        yield {**context, **row, "answering_budget": answering.get(row["query"])}


def _answering_budgets(plan: _Plan, accounting: PrefixTokens, format_: Format, positions: UnitPositions,
                       rows: Sequence[dict], extra: int, each_unit_once: bool) -> dict[str, int | None]:
    """Per query, the record policy's exact smallest answering budget (core.analysis.answering_budget) for a
    lossless rendering without the marker line; none for the others (their budgets are the grid's).

    When the records carry each unit once, a prefix's answer is shared with every view of the sweep that keeps
    the same units (`_shared_answer`): the formats whose records follow the ordering unit by unit halve
    through the same prefixes.
    """
    if not format_.lossless or plan.marker or "record" not in plan.policies:
        return {}
    needed = needed_budgets(accounting.counts, extra)
    found: dict[str, int | None] = {}
    for name in dict.fromkeys(row["query"] for row in rows):
        query, gold = plan.named[name], plan.gold[name]
        swept = [(row["budget"], row["records_kept"], row["traversal_accuracy"] == 1.0) for row in rows
                 if row["query"] == name and row["policy"] == "record"]

        def holds(records: int, name: str = name, query: Query = query, gold: Solution = gold) -> bool:
            view = DecodedCut(positions.kept(records))
            if each_unit_once:
                return _shared_answer(plan, positions, records, name, query, gold, view)
            return answers(query, gold, view)
        found[name] = answering_budget(needed, swept, holds)
    return found


def _full_recall_from(accounting: PrefixTokens, candidate_records: np.ndarray, extra: int) -> int | None:
    """`full_recall_budget` from the candidates' sorted record positions (NEVER: not rendered)."""
    if len(candidate_records) and int(candidate_records[-1]) == NEVER:
        return None  # a candidate is not rendered at all (a radius below k)
    needed = (int(candidate_records[-1]) if len(candidate_records) else -1) + 1
    return int(accounting.counts[:needed + 1].max()) + extra


def _sorted_positions(keys: Iterable[str], record_of_key: Mapping[str, int]) -> np.ndarray:
    """Record positions of the keys, sorted: how many a prefix keeps is one binary search."""
    return np.sort(np.fromiter((record_of_key.get(key, NEVER) for key in keys), dtype=np.int64))


def _cut_rows(plan: _Plan, accounting: PrefixTokens, format_: Format, group: Sequence[str], ordering: str,
              layout: str, arrays: UnitPositions | None, candidate_positions: np.ndarray) -> Iterable[dict]:
    """One row per (policy, budget, query). Cuts that hold the same text share one reading of it.

    `arrays`: the rendering's positions over the sweep's graph when its records carry each unit once.
    """
    record_of_key = accounting.record_of_key
    positions = None
    if plan.metrics_from == "kept":
        if format_.lossless:
            positions = positions_for(accounting.rendering, plan.graph, record_of_key)
        elif format_.image is not None:  # a lossy format whose decoder's image of each unit is known
            positions = image_positions(plan.graph, format_, accounting.rendering.records)
    # Kept views of such a lossless rendering share answers with every view that keeps the same units.
    shared = arrays is not None and positions is arrays
    if arrays is not None:
        node_counts, edge_counts = _padded_counts(arrays.prefix_counts(), accounting.records + 1)
        evidence_positions = {name: np.sort(arrays.records_of(_indices(plan, ("evidence", name),
                                                                       plan.gold[name].evidence)))
                              for name in group}
    else:
        node_counts, edge_counts = accounting.kept_node_and_edge_counts
        evidence_positions = {name: _sorted_positions(plan.gold[name].evidence, record_of_key) for name in group}
    readings: dict[tuple, DecodedCut] = {}  # what a cut's document holds, by what identifies that document
    decoded: dict[tuple, DecodedCut] = {}  # the same, decoded (the decoded path, and verify)
    accurate: dict[tuple, bool] = {}
    for policy in plan.policies:
        for budget in plan.budgets:
            result = cut(accounting, format_, policy, budget, count_grammar=plan.count_grammar, marker=plan.marker,
                         sections=plan.sections)
            kept = result.records_kept
            identity = document_identity(result, accounting)
            reading = readings.get(identity) if identity is not None else None
            if reading is None:
                if plan.metrics_from == "kept":
                    reading = (kept_cut(result, format_, positions, accounting.prefix_text) if format_.lossless
                               else image_cut(result, positions, accounting))
                    if reading is None and identity is not None and identity[0] == "raw":
                        reading = tail_reading(result, format_, positions, accounting)
                if reading is None:
                    reading = _decoded(result, format_, identity, decoded, plan.documents)
                if identity is not None:
                    readings[identity] = reading
            per_cut = {"seed_token_share": seed_token_share(result, accounting, plan.seed_ids) if plan.seed_ids
                       else float("nan"), "rank_inversions": rank_inversions(result, accounting)}
            text = result.text if plan.reader.template_name is not None else ""
            if result.selection:  # a re-rendered subset of the units, not a record prefix
                kept_set = frozenset(result.kept_keys)
                nodes = sum(1 for key in kept_set if key.startswith("n:"))
                counts = (nodes, len(kept_set) - nodes)
                membership: Collection[str] = kept_set
                candidates_kept = sum(1 for key in plan.candidates if key in kept_set)
            else:
                counts = (int(node_counts[kept]), int(edge_counts[kept]))
                membership = KeptKeys(record_of_key, kept)
                candidates_kept = int(np.searchsorted(candidate_positions, kept))
            for name in group:
                query, gold = plan.named[name], plan.gold[name]
                if identity is None:
                    answered = answers(query, gold, reading)
                else:
                    known = accurate.get((identity, name))
                    if known is None:
                        view = reading.graph
                        if shared and isinstance(view, KeptGraph) and view.positions is positions \
                                and not view.extended:
                            known = _shared_answer(plan, positions, view.records, name, query, gold, reading)
                        else:
                            known = answers(query, gold, reading)
                        accurate[identity, name] = known
                    answered = known
                evidence_kept = (sum(1 for key in gold.evidence if key in membership) if result.selection
                                 else int(np.searchsorted(evidence_positions[name], kept)))
                metrics = cut_metrics(result, reading, answered, evidence_kept, len(gold.evidence), candidates_kept,
                                      len(plan.candidates), counts)
                if plan.verify:
                    reference = measure_cut(result, query, gold, _decoded(result, format_, identity, decoded),
                                            candidates=plan.candidates, kept=membership,
                                            node_and_edge_counts=counts)
                    _check_same(metrics, reference, (format_.name, ordering, layout, policy, budget, name))
                yield {
                    "query": name, "template": query.name, "question": plan.questions[name],
                    "policy": policy, "budget": budget, **{field: getattr(metrics, field) for field in _METRIC_FIELDS},
                    "first_dropped_keys": json.dumps(list(metrics.first_dropped_keys), ensure_ascii=False),
                    "empty": result.empty, **placement_columns(result, accounting, gold.evidence), **per_cut,
                    **_request_columns(plan, name, format_, text, result.tokens)}


def _request_columns(plan: _Plan, name: str, format_: Format, text: str, tokens: int) -> dict:
    """`request_tokens` and `within_window` of one cut's text asked as query `name` (empty: see core.analysis.request_fit)."""
    if plan.reader.template_name is None:
        return {"request_tokens": None, "within_window": None}
    whole = plan.requests.get((name, format_.name))
    if whole is None:
        template = plan.reader.template()
        assert template is not None  # a reader with a template name has its template
        schema = schema_for(plan.named[name].name, plan.gold[name].answer)
        head = frame_head(schema, plan.questions[name], format_.name, format_.grammar)
        whole = plan.requests[name, format_.name] = WholeRequest(template, TOKENIZERS.get(plan.tokenizer), head)
    counted = whole.tokens(text, tokens)
    return {"request_tokens": counted,
            "within_window": None if plan.reader.window is None else counted <= plan.reader.window}


def _each_unit_once(accounting: PrefixTokens, positions: UnitPositions) -> bool:
    """Whether every unit key of the rendering's records is a unit of the graph, carried by one record only."""
    carried = sum(len(record.unit_keys) for record in accounting.rendering.records)
    rendered = int(np.count_nonzero(positions.unit_record != NEVER))
    return carried == len(accounting.record_of_key) == rendered


def _padded_counts(counts: tuple[np.ndarray, np.ndarray], length: int) -> tuple[np.ndarray, np.ndarray]:
    """Prefix counts extended to every prefix length (records after the last unit-carrying one add nothing)."""
    return tuple(np.concatenate((part, np.full(length - len(part), part[-1], dtype=np.int64)))
                 for part in counts)


def _indices(plan: _Plan, name: object, keys: Iterable[str]) -> np.ndarray:
    """Unit indices of a key set the sweep asks about in every rendering, computed once per sweep."""
    found = plan.indices.get(name)
    if found is None:
        found = plan.indices[name] = graph_keys(plan.graph).indices(keys)
    return found


def _shared_answer(plan: _Plan, positions: UnitPositions, records: int, name: str, query: Query, gold: Solution,
                   reading: DecodedCut) -> bool:
    """Whether the kept view answers, shared with every earlier view of the sweep that keeps the same units.

    The view is the full graph restricted to its kept units, so views that keep the same units are the
    same graph whatever the format; a sum of per-unit marks finds the candidates, compared exactly.
    """
    key = (positions.kept_mark(records), name)
    units = positions.kept_units(records)
    earlier = plan.answered.get(key, ())
    for kept, known in earlier:
        if np.array_equal(kept, units):
            return known
    known = answers(query, gold, reading)
    plan.answered[key] = (*earlier, (units, known))
    return known


def _decoded(result: Cut, format_: Format, identity: tuple | None, decoded: dict[tuple, DecodedCut],
             documents: LRUCache | None = None) -> DecodedCut:
    if identity is None:
        return decode_cut(result, format_)
    found = decoded.get(identity)
    if found is None:
        if documents is not None and identity[0] != "prefix":  # a prefix's text is known only by its rendering
            key = (format_.name, identity[1])
            found = documents.get(key)  # a hit counts as a use: cachetools evicts the least recently used
            if found is None:
                found = documents[key] = decode_cut(result, format_)
        else:
            found = decode_cut(result, format_)
        decoded[identity] = found
    return found


def _check_same(metrics: CutMetrics, reference: CutMetrics, where: tuple) -> None:
    """Raise on the first metric the kept units and the decoded text disagree on."""
    for name in _METRIC_FIELDS:
        ours, theirs = getattr(metrics, name), getattr(reference, name)
        if ours != theirs:
            format_name, ordering, layout, policy, budget, query = where
            raise DecodeMismatchError(
                f"{name} is {ours!r} from the kept units but {theirs!r} from the decoded text",
                f"format {format_name}, ordering {ordering}, layout {layout}, policy {policy}, budget {budget}, "
                f"query {query}",
                "a format's records and its decoder disagree: check the format's prefix property "
                "(tests/core/formats) or sweep with metrics_from='decoded'")


_METRIC_FIELDS = ("tokens", "grammar_tokens", "budgeted_tokens", "bytes", "characters", "records_kept",
                  "records_total", "parse_ok", "nodes_retained", "edges_retained", "evidence_total", "evidence_kept",
                  "evidence_survival", "evidence_complete", "traversal_accuracy", "candidate_total",
                  "candidate_recall", "first_dropped_record", "next_tokens", "explanation", "decode_error")


def rendering_summary(graph: Graph, queries: Mapping[str, Query] | Sequence[Query], *,
                      formats: Sequence[str] | None = None, tokenizer: str = "o200k_base") -> pd.DataFrame:
    """One row per format for the untruncated rendering (canonical order): size, tokens, round trip, accuracy."""
    named = named_queries(queries)
    encoder = TOKENIZERS.get(tokenizer)
    gold = {name: query.solve(graph).answer for name, query in named.items()}
    rows = []
    for name in formats or FORMATS.names():
        figures = measure_format(graph, FORMATS.get(name), encoder, named, gold)
        rows.append({"format": figures.name, "lossless": figures.lossless, "bytes": figures.utf8_bytes,
                     "characters": figures.characters, "tokens": figures.tokens,
                     "grammar_tokens": figures.grammar_tokens, "total_tokens": figures.tokens + figures.grammar_tokens,
                     "records": figures.records, "round_trip": figures.round_trip_equal,
                     "traversal_accuracy": figures.traversal_accuracy, "decode_error": figures.decode_error})
    frame = pd.DataFrame(rows)
    frame.insert(0, "graph_hash", graph.sha256)
    frame.insert(1, "tokenizer", tokenizer)
    return frame


def cheapest_lossless(summary: pd.DataFrame) -> str | None:
    """The format of a `rendering_summary` with the fewest tokens among the lossless ones that round-trip exactly."""
    exact = summary[summary["lossless"] & summary["round_trip"]]
    return None if exact.empty else str(exact.loc[exact["tokens"].idxmin(), "format"])
