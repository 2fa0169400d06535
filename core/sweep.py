"""Sweeps: every (query, format, ordering, layout, policy, budget) cut of one graph, as a tidy DataFrame.

`sweep(...)` renders each (format, ordering, layout) once, accounts its tokens once (cached by graph
content key, format, ordering and tokenizer), cuts it at every budget under every policy, decodes
each cut once and measures it for every query: one row per cut and query. Layouts a format cannot
show are skipped (a format with separate node and edge sections only has `nodes_then_edges`), and
`evidence_first` is rendered once per query, since its order comes from that query's evidence.

`rendering_summary(...)` describes the untruncated renderings: bytes, characters, tokens, grammar
tokens, round trip and traversal accuracy per format.
"""

from __future__ import annotations

import json
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from core.benchmark import measure_format
from core.budget import POLICIES, check_policy, cut, grammar_tokens
from core.coverage import SeedRegion, coverage_tokens, seed_region
from core.errors import ParameterError
from core.formats.base import Format
from core.graph import Graph
from core.metrics import DecodedCut, KeptKeys, decode_cut, measure_cut
from core.ordering import LAYOUTS, Ordering, OrderingInputs, check_layout, inputs_for, layouts_for, order_units
from core.placement import PLACEMENT_COLUMNS, placement_columns
from core.prefix_tokens import PrefixTokens, TokenCache, prefix_tokens
from core.queries import Query, Solution
from core.registry import FORMATS, ORDERINGS, TOKENIZERS
from core.seeds import Seeds
from core.tokens import Tokenizer

DEFAULT_BUDGETS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536)
# Bounded by rendering text bytes; the records and token arrays behind them take several times more.
DEFAULT_CACHE = TokenCache(max_bytes=10_000_000)
Progress = Callable[[int, int, str], None]  # (cuts done, cuts in total, what is being cut)


def accounted_rendering(graph: Graph, format_: Format, ordering: Ordering, layout: str, inputs: OrderingInputs,
                        tokenizer: Tokenizer, *, region: SeedRegion | None = None, radius: int | None = None,
                        cache: TokenCache | None = DEFAULT_CACHE) -> PrefixTokens:
    """The rendering of the graph (or of U_radius(S)) in this format and order, with exact prefix tokens.

    Cached by (graph content key, format, ordering with everything it depends on, layout, tokenizer).
    """
    region = region or seed_region(graph, inputs.seeds or (), inputs.direction)
    key = (graph.content_key, format_.name, ordering.name, layout, tokenizer.name, radius, inputs.direction,
           inputs.seeds if ordering.uses_seeds or radius is not None else (),
           inputs.shuffle_seed if ordering.uses_shuffle_seed else None,
           inputs.evidence if ordering.uses_evidence else None, inputs.question if ordering.uses_question else None)

    def build() -> PrefixTokens:
        units = region.units if radius is None else region.candidates(radius)
        return prefix_tokens(format_.render(graph, order_units(graph, units, ordering, layout, inputs)), tokenizer,
                             source=(graph, units))

    return cache.get_or_build(key, build) if cache is not None else build()


def _named_queries(queries: Mapping[str, Query] | Sequence[Query]) -> dict[str, Query]:
    named = dict(queries) if isinstance(queries, Mapping) else {query.label: query for query in queries}
    if not named:
        raise ParameterError("a sweep needs at least one query", "queries", "pick a query template")
    return named


def _seed_ids(seeds: Seeds | Sequence[str] | None, queries: Iterable[Query]) -> tuple[str, ...]:
    if isinstance(seeds, Seeds):
        return seeds.node_ids
    if seeds:
        return tuple(dict.fromkeys(seeds))
    return tuple(dict.fromkeys(seed for query in queries for seed in query.seeds))


def _budgets(budgets: Iterable[int]) -> tuple[int, ...]:
    checked = []
    for budget in budgets:
        if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 0:
            raise ParameterError(f"budget {budget!r} is not a whole number of tokens", "budgets",
                                 "give budgets as whole numbers of tokens, 0 or more")
        checked.append(int(budget))
    if not checked:
        raise ParameterError("no budget was given", "budgets", "give at least one budget, e.g. 512,1024,4096")
    return tuple(checked)


def full_recall_budget(accounting: PrefixTokens, candidates: Iterable[str], extra: int) -> int | None:
    """The smallest budget at which the record policy keeps every candidate in this rendering."""
    positions = [accounting.record_of_key.get(key) for key in candidates]
    if any(position is None for position in positions):
        return None  # a candidate is not rendered at all (a radius below k)
    needed = max(positions, default=-1) + 1
    return int(accounting.counts[:needed + 1].max()) + extra


def sweep(graph: Graph, queries: Mapping[str, Query] | Sequence[Query], *,
          seeds: Seeds | Sequence[str] | None = None, formats: Sequence[str] | None = None,
          orderings: Sequence[str] | None = None, layouts: Sequence[str] = LAYOUTS,
          policies: Sequence[str] = POLICIES, budgets: Iterable[int] = DEFAULT_BUDGETS,
          tokenizer: str = "o200k_base", hops: int = 2, direction: str = "both", radius: int | None = None,
          shuffle_seed: int = 0, count_grammar: bool = True, marker: bool = False,
          progress: Progress | None = None, cache: TokenCache | None = DEFAULT_CACHE) -> pd.DataFrame:
    """Cut every rendering at every budget and measure every query: one row per (cut, query).

    seeds default to the nodes the queries name. `hops` is the k of candidate recall and D_k(S);
    `radius`, when given, renders only U_radius(S) (the seed-anchored candidate region) instead of
    the whole graph. The sweep's parameters are kept in `DataFrame.attrs["parameters"]`.
    """
    named = _named_queries(queries)
    seed_ids = _seed_ids(seeds, named.values())
    format_list = [FORMATS.get(name) for name in (formats or FORMATS.names())]
    ordering_list = [ORDERINGS.get(name) for name in (orderings or ORDERINGS.names())]
    layout_list = [check_layout(layout) for layout in layouts]
    policy_list = [check_policy(policy) for policy in policies]
    budget_list = _budgets(budgets)
    encoder = TOKENIZERS.get(tokenizer)
    if not seed_ids and (radius is not None or any(ordering.uses_seeds for ordering in ordering_list)):
        raise ParameterError("no seeds: the seed orderings, D_k(S) and the radius need them", "seeds",
                             "pick seed nodes by id, name them in a question, or use queries that name nodes")
    region = seed_region(graph, seed_ids, direction)
    candidates = region.candidate_keys(hops)
    gold = {name: query.solve(graph) for name, query in named.items()}
    questions = {name: query.question_on(graph) for name, query in named.items()}  # nodes named by label
    plan = [(format_, layout, ordering) for format_ in format_list for layout in layouts_for(format_)
            if layout in layout_list for ordering in ordering_list]
    total = len(plan) * len(named) * len(policy_list) * len(budget_list)
    rows: list[dict] = []
    coverage: dict[tuple[str, str], int] = {}
    for format_, layout, ordering in plan:
        if (format_.name, layout) not in coverage:
            coverage[format_.name, layout] = coverage_tokens(region, format_, hops, encoder, layout=layout,
                                                             count_grammar=count_grammar) if seed_ids else None
        groups = [[name] for name in named] if ordering.per_query else [list(named)]
        for group in groups:
            inputs = inputs_for(ordering, seed_ids, evidence=gold[group[0]].evidence, question=questions[group[0]],
                                shuffle_seed=shuffle_seed, direction=direction)
            accounting = accounted_rendering(graph, format_, ordering, layout, inputs, encoder, region=region,
                                             radius=radius, cache=cache)
            context = {
                "format": format_.name, "lossless": format_.lossless, "ordering": ordering.name,
                "oracle": ordering.oracle, "layout": layout,
                "shuffle_seed": shuffle_seed if ordering.uses_shuffle_seed else None,
                "coverage_tokens": coverage[format_.name, layout],
                "full_recall_budget": full_recall_budget(
                    accounting, candidates, grammar_tokens(format_, encoder) if count_grammar else 0)
                if seed_ids else None}
            for row in _cut_rows(accounting, format_, group, named, questions, gold, candidates, policy_list,
                                 budget_list, count_grammar, marker):
                rows.append({**context, **row})
                if progress is not None:
                    progress(len(rows), total, f"{format_.name} / {ordering.name} / {layout}")
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame.insert(0, "graph_hash", graph.sha256)
    frame.insert(1, "tokenizer", tokenizer)
    frame.insert(2, "hops", hops)
    if not seed_ids:  # without seeds there is no candidate region to recall
        frame["candidate_recall"] = float("nan")
    for column in ("shuffle_seed", "coverage_tokens", "full_recall_budget", "first_dropped_record", "next_tokens"):
        frame[column] = frame[column].astype("Int64")  # whole numbers that may be missing
    frame.attrs["parameters"] = {
        "seeds": list(seed_ids), "direction": direction, "hops": hops, "radius": radius,
        "shuffle_seed": shuffle_seed, "count_grammar": count_grammar, "marker": marker, "budgets": list(budget_list),
        "tokenizer": tokenizer, "graph_hash": graph.sha256, "queries": questions}
    return frame


COLUMNS = [
    "query", "template", "question", "format", "lossless", "ordering", "oracle", "layout", "shuffle_seed", "policy",
    "budget", "tokens", "grammar_tokens", "budgeted_tokens", "bytes", "characters", "records_kept", "records_total",
    "parse_ok", "nodes_retained", "edges_retained", "evidence_total", "evidence_kept", "evidence_survival",
    "evidence_complete", "traversal_accuracy", "candidate_total", "candidate_recall", "coverage_tokens",
    "full_recall_budget", "first_dropped_record", "first_dropped_keys", "next_tokens", "empty", "explanation",
    "decode_error", *PLACEMENT_COLUMNS,
]


def _cut_rows(accounting: PrefixTokens, format_: Format, group: list[str], named: dict[str, Query],
              questions: dict[str, str], gold: dict[str, Solution], candidates: frozenset[str], policies: list[str], budgets: tuple[int, ...],
              count_grammar: bool, marker: bool) -> Iterable[dict]:
    decoded_prefixes: dict[int, DecodedCut] = {}  # record cuts with equal record counts decode alike
    node_counts, edge_counts = accounting.kept_node_and_edge_counts
    for policy in policies:
        for budget in budgets:
            result = cut(accounting, format_, policy, budget, count_grammar=count_grammar, marker=marker)
            if policy == "record" and not result.empty:
                decoded = decoded_prefixes.get(result.records_kept)
                if decoded is None:
                    decoded = decoded_prefixes[result.records_kept] = decode_cut(result, format_)
            else:
                decoded = decode_cut(result, format_)
            if policy == "sections":  # a re-rendered subset, not a record prefix
                kept = frozenset(result.kept_keys)
                nodes = sum(1 for key in kept if key.startswith("n:"))
                counts = (nodes, len(kept) - nodes)
            else:
                kept = KeptKeys(accounting.record_of_key, result.records_kept)
                counts = (int(node_counts[result.records_kept]), int(edge_counts[result.records_kept]))
            for name in group:
                metrics = measure_cut(result, named[name], gold[name], decoded, candidates=candidates, kept=kept,
                                      node_and_edge_counts=counts)
                yield {
                    "query": name, "template": named[name].name, "question": questions[name],
                    "policy": policy, "budget": budget, **{field: getattr(metrics, field) for field in _METRIC_FIELDS},
                    "first_dropped_keys": json.dumps(list(metrics.first_dropped_keys), ensure_ascii=False),
                    "empty": result.empty, **placement_columns(result, accounting, gold[name].evidence)}


_METRIC_FIELDS = ("tokens", "grammar_tokens", "budgeted_tokens", "bytes", "characters", "records_kept",
                  "records_total", "parse_ok", "nodes_retained", "edges_retained", "evidence_total", "evidence_kept",
                  "evidence_survival", "evidence_complete", "traversal_accuracy", "candidate_total",
                  "candidate_recall", "first_dropped_record", "next_tokens", "explanation", "decode_error")


def rendering_summary(graph: Graph, queries: Mapping[str, Query] | Sequence[Query], *,
                      formats: Sequence[str] | None = None, tokenizer: str = "o200k_base") -> pd.DataFrame:
    """One row per format for the untruncated rendering (canonical order): size, tokens, round trip, accuracy."""
    named = _named_queries(queries)
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
