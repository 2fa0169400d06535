"""Seed token share: the share of a cut's tokens that the seeds' own records take.

A context can keep the seed and starve it: "2 tokens of target" beside 1,570 of a neighbour's body. A
record is a seed's own when it carries a seed node's unit key `n:<id>`; it counts whole, whatever else
it carries (a datasheet page holds its node and that node's edges: all of it is the seed's page). An edge
record that only mentions a seed is not the seed's own. A record's tokens are what it adds to the document
of the records before it, the cut's accounting's counts[i + 1] - counts[i] (exact prefix counts, closing
included), so the seed share, the other records' shares, the empty document's and the marker line's add up
to the cut's tokens. A selecting cut is counted in its own rendering (`core.metrics.own_accounting`).

    seed_token_share = sum of the kept seed records' tokens / the cut's tokens

NaN for an empty cut and for a sweep without seeds; 0 when no seed record is kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import itemgetter

import numpy as np

from core.budget.policies import Cut
from core.formats.base import Rendering
from core.graph.derived import derived
from core.metrics.own_accounting import own_accounting
from core.tokens.prefix_tokens import PrefixTokens


def seed_records(rendering: Rendering, seed_ids: Sequence[str]) -> np.ndarray:
    """Sorted indices of the records that carry a seed node's key (once per rendering and seed set)."""
    seeds = tuple(seed_ids)

    def build() -> np.ndarray:
        keys = {f"n:{seed}" for seed in seeds}
        position = rendering.record_of_key
        if sum(map(len, map(itemgetter(1), rendering.records))) == len(position):  # each key in one record
            return np.array(sorted({position[key] for key in keys if key in position}), dtype=np.int64)
        return np.array([index for index, record in enumerate(rendering.records)
                         if not keys.isdisjoint(record.unit_keys)], dtype=np.int64)

    return derived(rendering, ("seed records", seeds), build)


def seed_tokens(accounting: PrefixTokens, kept: int, seed_ids: Sequence[str]) -> int:
    """Tokens the seed records among the first `kept` records add to their document."""
    records = _seed_marginals(accounting, tuple(seed_ids))
    indices, running = records
    return int(running[int(np.searchsorted(indices, kept))])


def _seed_marginals(accounting: PrefixTokens, seeds: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The seed records' indices and the running sums of their tokens (0 first), once per accounting."""
    def build() -> tuple[np.ndarray, np.ndarray]:
        indices = seed_records(accounting.rendering, seeds)
        counts = accounting.counts
        tokens = counts[indices + 1] - counts[indices]
        return indices, np.concatenate(([0], np.cumsum(tokens, dtype=np.int64)))

    return derived(accounting, ("seed marginals", seeds), build)


def seed_token_share(cut: Cut, accounting: PrefixTokens, seed_ids: Sequence[str]) -> float:
    """The share of the cut's tokens that the kept seed records take (see the module's note)."""
    if cut.empty or not seed_ids or cut.tokens <= 0:
        return math.nan
    own, kept = own_accounting(cut, accounting)
    return seed_tokens(own, kept, seed_ids) / cut.tokens
