"""Seed-anchored coverage: the candidate units U_k(S), the tokens D_k(S) they need, candidate recall.

D_k(S) is the exact token count of the document that renders every unit within k hops of the seeds
(hop-tier order; interleaved where the format allows), preamble and closing included, plus the
format's grammar when grammar is counted (the default, as for budgets). By seed document 002, a
hop-tier rendering under the record policy keeps every candidate exactly when the budget is at
least D_k(S): the transition sits at B = D_k(S).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from core.budget.policies import grammar_tokens
from core.formats.base import Format, Rendering
from core.graph.hops import candidate_units, hop_units
from core.graph.model import Graph
from core.graph.units import Unit
from core.retrieval.ordering import HOP_TIERS, OrderingInputs, layouts_for, order_units
from core.tokens.protocol import Tokenizer


@dataclass(frozen=True)
class SeedRegion:
    """A graph seen from its seeds: every unit with its hop level."""

    graph: Graph
    seeds: tuple[str, ...]
    direction: str
    units: tuple[Unit, ...]

    def candidates(self, k: float) -> tuple[Unit, ...]:
        """U_k(S) in canonical order."""
        return candidate_units(self.units, k)

    def candidate_keys(self, k: float) -> frozenset[str]:
        return frozenset(unit.key for unit in self.candidates(k))

    def max_hop(self) -> int:
        """The largest finite hop level (0 when only the seeds are reachable)."""
        return int(max((unit.hop for unit in self.units if unit.hop != float("inf")), default=0))


def seed_region(graph: Graph, seeds: Sequence[str], direction: str = "both") -> SeedRegion:
    seeds = tuple(dict.fromkeys(seeds))
    return SeedRegion(graph, seeds, direction, hop_units(graph, seeds, direction))


def coverage_rendering(region: SeedRegion, format_: Format, k: float, layout: str | None = None) -> Rendering:
    """The document holding exactly U_k(S), in hop-tier order (interleaved when the format allows)."""
    layout = layout or layouts_for(format_)[-1]
    inputs = OrderingInputs(seeds=region.seeds, direction=region.direction)
    return format_.render(region.graph, order_units(region.graph, region.candidates(k), HOP_TIERS, layout, inputs))


def coverage_tokens(region: SeedRegion, format_: Format, k: float, tokenizer: Tokenizer, *,
                    layout: str | None = None, count_grammar: bool = True) -> int:
    """D_k(S): exact tokens to render every unit within k hops (plus the grammar when counted)."""
    document = tokenizer.count(coverage_rendering(region, format_, k, layout).text)
    return document + (grammar_tokens(format_, tokenizer) if count_grammar else 0)


def coverage_curve(region: SeedRegion, format_: Format, tokenizer: Tokenizer, *, layout: str | None = None,
                   count_grammar: bool = True, max_hops: int | None = None) -> list[tuple[int, int, int]]:
    """(k, |U_k(S)|, D_k(S)) for k = 0 .. the largest finite hop level (or max_hops)."""
    last = region.max_hop() if max_hops is None else min(max_hops, region.max_hop())
    return [(k, len(region.candidates(k)),
             coverage_tokens(region, format_, k, tokenizer, layout=layout, count_grammar=count_grammar))
            for k in range(last + 1)]


def candidate_recall(kept: Collection[str], candidates: Collection[str]) -> float:
    """Share of the candidate keys that were kept (1.0 when there are none)."""
    if not candidates:
        return 1.0
    return sum(1 for key in candidates if key in kept) / len(candidates)
