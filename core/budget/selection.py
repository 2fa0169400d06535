"""Budget policies that select: which units to keep by value per token, a 0/1 knapsack or a connected subgraph.

Where the prefix policies cut the ordering's sequence at the budget, these choose a subset of its
units and render that subset again as one complete document (like `sections`), so every non-empty
cut parses. What they weigh:

- relevance: the scores the ordering ranks by (`Ordering.relevance`, core.retrieval.unit_scores):
  PageRank with restarts at the seeds, BM25 against the question, k-core then degree, the hop level
  (1 / (1 + hop)); under the graph scores an edge has its weaker endpoint's. Scaled so the best unit
  has 1, and never below 1e-6 (an unreached unit still fills room nothing else wants). An ordering
  without scores (canonical, bfs_from_seeds, and the baselines shuffled and evidence_first), or a
  rendering whose ordering is not recorded, falls back to reciprocal rank: the node ranked r-th
  (0-based, among nodes) has 1 / (r + 1), an edge its weaker endpoint's (an edge whose endpoint is
  not rendered ranks among the edges instead);
- cost: each record's tokens in the complete rendering (the prefix counts' differences, so a
  section header is charged to the record that opens it), shared equally by the units it carries;
  the empty document's tokens are paid once.

The policies:
- `density`: records by summed relevance per token, best first, each kept if it still fits;
- `knapsack`: the 0/1 optimum of summed relevance over records whose summed cost fits, by dynamic
  programming over whole tokens, exact for that cost model, when records x (capacity + 1) is at
  most `KNAPSACK_CELLS` (the bound: 20,000,000 cells, a 20 MB table of choices to trace back; 2,011
  records at 8,192 tokens took 0.24 s); a larger instance is refused with that reason (an empty cut
  that says so), never solved greedily in its place;
- `connected`: a prize-collecting tree over the rendered nodes and edges (`core.budget.steiner`): the
  seeds (hop 0) joined by a Steiner tree, grown by relevance per token while it fits, shrunk leaf by
  leaf (never a seed) until the exact count fits; it stays connected and keeps the seeds.

Costs are additive only as an estimate: the kept units are rendered again and counted exactly, and
while the text is over the budget the policy drops more (density and connected: the weakest kept
unit; knapsack: solved again with the capacity lowered by the excess, so it stays the optimum under
a tighter capacity).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from core.budget.candidates import Candidates, Item, candidates
from core.budget.policies import BudgetPolicy, Cut, CutRequest, empty_cut
from core.budget.steiner import connected_choice
from core.formats.base import Rendering
from core.graph.units import Unit

KNAPSACK_CELLS = 20_000_000  # records x (capacity + 1) the knapsack solves (a 20 MB trace-back table); above it: refused
REFITS = 64  # exact re-counts before a policy gives up fitting (each drops at least one unit)


def knapsack(values: Sequence[float], costs: Sequence[int], capacity: int) -> tuple[int, ...]:
    """The indices of a subset with the largest summed value whose summed cost is at most `capacity` (0/1, exact
    for whole costs of 1 or more; on equal values the earlier items are preferred)."""
    if capacity < 0:
        return ()
    best = np.zeros(capacity + 1)
    taken = np.zeros((len(values), capacity + 1), dtype=bool)
    for index in range(len(values) - 1, -1, -1):  # backwards, so the trace-back prefers earlier items on ties
        cost, value = int(costs[index]), float(values[index])
        if cost > capacity:
            continue
        with_item = best[:capacity + 1 - cost] + value
        better = with_item > best[cost:] + 1e-12
        taken[index, cost:] = better
        best[cost:] = np.where(better, with_item, best[cost:])
    chosen, left = [], capacity
    for index in range(len(values)):
        if taken[index, left]:
            chosen.append(index)
            left -= int(costs[index])
    return tuple(chosen)


def _render_count(request: CutRequest, chosen: set[str], ordered: Sequence[Unit]) -> tuple[str, str, int, Rendering]:
    """The document of the chosen units (in the rendering's order), its marker line and its exact tokens."""
    graph = request.graph
    assert graph is not None
    kept = [unit for unit in ordered if unit.key in chosen]
    rendering = request.format_.render(graph, kept)
    text = rendering.text
    line = f"[{len(kept)} of {len(ordered)} units shown]" if request.marker and len(kept) < len(ordered) else ""
    tokens = request.accounting.tokenizer.count(text + ("\n" + line if line else ""))
    return text, line, tokens, rendering


def fitted_cut(request: CutRequest, policy: str, found: Candidates, chosen: list[str],
               shrink: Callable[[list[str], int], list[str]], why: str) -> Cut:
    """Render the chosen keys (best first) and count them; while over the budget, `shrink(chosen, excess)` drops
    more. The cut names the best-ranked unit it did not keep."""
    ordered = found.units
    for _ in range(REFITS):
        if not chosen:
            break
        text, line, tokens, rendering = _render_count(request, set(chosen), ordered)
        if tokens <= request.allowed:
            kept = set(chosen)
            dropped = next((unit.key for unit in ordered if unit.key not in kept), None)
            complete = len(kept) == len(ordered)
            explanation = "" if complete else (f"kept {len(kept):,} of {len(ordered):,} units ({why}); the "
                                               f"best-ranked unit not kept is {dropped}")
            return Cut(request.format_.name, policy, request.budget, text, line, tokens, request.grammar,
                       request.count_grammar, len(rendering.records), request.accounting.records, None,
                       explanation, rendering, dropped_keys=(dropped,) if dropped else (), selection=True)
        chosen = shrink(chosen, tokens - request.allowed)
    return empty_cut(request.accounting, request.format_, policy, request.budget, request.grammar,
                     request.count_grammar, found.empty_tokens + min((item.cost for item in found.records), default=0),
                     "the empty document and one unit", selection=True)


def _drop_estimated(chosen: list[str], excess: int, cost: dict[str, float]) -> list[str]:
    """Drop from the end (the weakest) until the estimated cost dropped covers the excess, at least one."""
    dropped, kept = 0.0, list(chosen)
    while kept and (dropped < excess or len(kept) == len(chosen)):
        dropped += cost.get(kept.pop(), 1.0)
    return kept


def _keys_of(items: Sequence[Item]) -> list[str]:
    return [key for item in items for key in item.keys]


def _density(request: CutRequest) -> Cut:
    found = candidates(request)
    room = request.allowed - found.empty_tokens
    ranked = sorted(found.records, key=lambda item: (-item.relevance / item.cost, item.position))
    chosen, used = [], 0
    for item in ranked:
        if used + item.cost <= room:
            chosen.append(item)
            used += item.cost
    if not chosen:
        return _nothing(request, "density", found)
    return fitted_cut(request, "density", found, _keys_of(chosen),
                      lambda keys, excess: _drop_estimated(keys, excess, found.unit_cost),
                      "by relevance per token")


def _knapsack(request: CutRequest) -> Cut:
    found = candidates(request)
    items = found.records
    room = request.allowed - found.empty_tokens
    if sum(item.cost for item in items) <= room:
        return fitted_cut(request, "knapsack", found, _keys_of(items),
                          lambda keys, excess: _knapsack_keys(items, room - excess), "the 0/1 optimum")
    cells = len(items) * (room + 1)
    if cells > KNAPSACK_CELLS:
        return _refused(request, found, f"the knapsack is refused: {len(items):,} records x {room + 1:,} token "
                                        f"capacities = {cells:,} cells, over the bound of {KNAPSACK_CELLS:,}")
    state = {"room": room}

    def shrink(keys: list[str], excess: int) -> list[str]:
        state["room"] -= excess  # solved again under a capacity lower by what the exact count exceeded
        return _knapsack_keys(items, state["room"])

    chosen = _knapsack_keys(items, room)
    if not chosen:
        return _nothing(request, "knapsack", found)
    return fitted_cut(request, "knapsack", found, chosen, shrink, "the 0/1 optimum of summed relevance")


def _knapsack_keys(items: Sequence[Item], room: int) -> list[str]:
    picked = knapsack([item.relevance for item in items], [item.cost for item in items], room)
    return _keys_of(sorted((items[index] for index in picked), key=lambda item: -item.relevance / item.cost))


def _refused(request: CutRequest, found: Candidates, reason: str) -> Cut:
    return Cut(request.format_.name, "knapsack", request.budget, "", "", 0, request.grammar, request.count_grammar, 0,
               request.accounting.records, None, reason, request.accounting.rendering, selection=True)


def _nothing(request: CutRequest, policy: str, found: Candidates) -> Cut:
    cheapest = min((item.cost for item in found.records), default=0)
    return empty_cut(request.accounting, request.format_, policy, request.budget, request.grammar,
                     request.count_grammar, found.empty_tokens + cheapest, "the empty document and one unit",
                     selection=True)


def _connected(request: CutRequest) -> Cut:
    found = candidates(request)
    assert request.graph is not None
    choice = connected_choice(found, request.allowed - found.empty_tokens)  # grown to fit, by estimate
    if choice is None:
        return _nothing(request, "connected", found)
    return fitted_cut(request, "connected", found, choice.keys, choice.shrink,
                      "a connected subgraph holding the seeds")


DENSITY = BudgetPolicy("density", "records by relevance (the ordering's scores) per token, greedily, "
                       "each kept while it fits; the kept units rendered again", _density, prefix=False,
                       always_parses=True, preference=2, needs_source=True)
KNAPSACK = BudgetPolicy("knapsack", f"the exact 0/1 optimum of summed relevance under the budget (refused above "
                        f"{KNAPSACK_CELLS:,} records x token capacities); the kept units rendered again", _knapsack,
                        prefix=False, always_parses=True, preference=3, needs_source=True)
CONNECTED = BudgetPolicy("connected", "a connected subgraph holding the seeds: a Steiner tree joining them, grown "
                         "by relevance per token while it fits, shrunk leaf by leaf until it does", _connected,
                         prefix=False, always_parses=True, preference=4, needs_source=True)
