"""Render, account and index a RenderingSpec: the render-and-count stage every analysis and the workbench share.

`accounted_rendering(spec)` renders the spec's units (the graph's, or those of U_radius(S)) in its ordering
and counts every record prefix exactly (`core.tokens.prefix_tokens`), kept in a `RenderingCache` by the
spec's key; `full_recall_budget(...)` reads from that accounting the smallest budget at which the record
policy keeps every candidate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.formats.base import Rendering
from core.graph.units import Unit
from core.memory.rendering_cache import RenderingCache
from core.metrics.coverage import SeedRegion, seed_region
from core.retrieval.ordering import order_units
from core.specs import RenderingSpec
from core.tokens.prefix_tokens import PrefixTokens, prefix_tokens


def accounted_rendering(spec: RenderingSpec, *, region: SeedRegion | None = None, cache: RenderingCache | None = None,
                        ordered: Sequence[Unit] | None = None) -> PrefixTokens:
    """The spec's rendering of the graph (or of U_radius(S)), with exact prefix tokens, kept in `cache` by the spec's key.

    `region` and `ordered`, when given, are the seed region and `order_units(...)` already computed
    (a sweep orders once for every format).
    """
    def build() -> PrefixTokens:
        rendering, source = spec_rendering(spec, region=region, ordered=ordered)
        return prefix_tokens(rendering, spec.tokenizer, source=source)

    return cache.get_or_build(spec.key, build) if cache is not None else build()


def spec_rendering(spec: RenderingSpec, *, region: SeedRegion | None = None,
                   ordered: Sequence[Unit] | None = None) -> tuple[Rendering, tuple]:
    """The spec's rendering, and the source its accounting keeps: the graph, its units, and the ordering and its
    inputs (the selecting policies weigh units by the scores it ranks by)."""
    graph, inputs = spec.graph, spec.inputs
    units = rendering_units(spec, region)
    arranged = ordered if ordered is not None else order_units(graph, units, spec.ordering, spec.layout, inputs)
    return spec.format.render(graph, arranged), (graph, units, spec.ordering, inputs)


def rendering_units(spec: RenderingSpec, region: SeedRegion | None = None) -> Sequence[Unit]:
    """The units the spec renders: the graph's, or those of U_radius(S)."""
    seeded = region or seed_region(spec.graph, spec.inputs.seeds or (), spec.inputs.direction)
    return seeded.units if spec.radius is None else seeded.candidates(spec.radius)


def full_recall_budget(accounting: PrefixTokens, candidates: Iterable[str], extra: int) -> int | None:
    """The smallest budget at which the record policy keeps every candidate in this rendering."""
    positions = [accounting.record_of_key.get(key) for key in candidates]
    rendered = [position for position in positions if position is not None]
    if len(rendered) < len(positions):
        return None  # a candidate is not rendered at all (a radius below k)
    needed = max(rendered, default=-1) + 1
    return int(accounting.counts[:needed + 1].max()) + extra
