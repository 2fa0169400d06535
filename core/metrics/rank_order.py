"""Rank inversions: how many pairs of kept units a cut writes out of the order the ordering ranked them in.

A cut must respect the selection order: LightRAG rebuilt its truncated lists "in stage-1 order, discarding
stage-2 selection order". A unit's rank is the position of its record in the complete rendering of the
ordering (the ordering as this format writes it: a format that groups, say edges by relation, has already
rewritten the ordering, and that is not the cut's doing). Its place in the cut is the position of its
record in the cut's document. A pair of kept units (u, v) is an inversion when u ranks strictly before v
but its record comes strictly after v's; units in one record, in the cut or in the rendering, are never a
pair out of order.

A prefix policy (raw, record) keeps the first records in their order: 0 by construction. A selecting
policy (sections, density, knapsack, connected) renders the units it chose again, in the rendering's order,
but the format may place them otherwise when their neighbours are gone (a node's page, a group whose head
was not kept), so its count is measured: O(n log n) in the kept units.
"""

from __future__ import annotations

import numpy as np

from core.budget.policies import Cut
from core.tokens.prefix_tokens import PrefixTokens


def rank_inversions(cut: Cut, accounting: PrefixTokens) -> int:
    """Pairs of kept units in the cut out of their rank order (0 for a prefix cut)."""
    if not cut.selection or cut.empty or cut.rendering is None:
        return 0
    rank = accounting.record_of_key
    places, ranks = [], []
    for place, record in enumerate(cut.rendering.records):
        for key in record.unit_keys:
            found = rank.get(key)
            if found is not None:
                places.append(place)
                ranks.append(found)
    if len(ranks) < 2:
        return 0
    order = np.lexsort((np.asarray(ranks), np.asarray(places)))  # by place, then rank: one record is in order
    ranked = np.asarray(ranks, dtype=np.int64)[order]
    if bool(np.all(ranked[1:] >= ranked[:-1])):
        return 0
    return _strict_inversions(ranked)


def _strict_inversions(values: np.ndarray) -> int:
    """Pairs i < j with values[i] > values[j] (equal values are no inversion), by a merge sort's count."""
    count = 0
    width = 1
    items = values.copy()
    size = len(items)
    while width < size:
        merged = np.empty_like(items)
        for start in range(0, size, 2 * width):
            left = items[start:start + width]
            right = items[start + width:start + 2 * width]
            if len(right):
                # each right value passes the left values strictly greater than it
                count += int(np.sum(len(left) - np.searchsorted(left, right, side="right")))
            merged[start:start + len(left) + len(right)] = np.sort(np.concatenate((left, right)), kind="stable")
        items = merged
        width *= 2
    return count
