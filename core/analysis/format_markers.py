"""The markers on the analysis pages' curves, per format: the budget that holds every unit within k hops
of the seeds (D_k(S)) and the complete text's budgeted tokens."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from core.analysis.budget_sweep import effective_layout, ordering_inputs
from core.budget.policies import grammar_tokens
from core.formats import FORMATS
from core.graph.model import Graph
from core.memory.rendering_cache import RenderingCache
from core.metrics.coverage import coverage_tokens, seed_region
from core.pipeline import accounted_rendering
from core.queries import Query
from core.retrieval import ORDERINGS
from core.retrieval.seeds import Seeds
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS


def format_markers(graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], ordering: str, layout: str,
                   tokenizer: str = "o200k_base", hops: int = 2,
                   progress: Callable[[int, int, str], None] | None = None, cache: RenderingCache | None = None
                   ) -> pd.DataFrame:
    """Per format: D_k(S) (the budget that holds every unit within k hops) and the full text's budgeted tokens.

    `progress` hears (formats done, formats in all, the format being measured) before each format and at the end."""
    encoder = TOKENIZERS.get(tokenizer)
    region = seed_region(graph, seeds.node_ids)
    ordering_ = ORDERINGS.get(ordering)
    inputs = ordering_inputs(graph, query, seeds, ordering)
    rows = []
    for index, name in enumerate(formats):
        if progress is not None:
            progress(index, len(formats), name)
        format_ = FORMATS.get(name)
        arranged = effective_layout(name, layout)
        accounting = accounted_rendering(RenderingSpec(graph, format_, ordering_, arranged, inputs, encoder),
                                         region=region, cache=cache)
        rows.append({"format": name, "lossless": format_.lossless,
                     "coverage_tokens": coverage_tokens(region, format_, hops, encoder, layout=arranged)
                     if seeds.node_ids else None,
                     "full_tokens": int(accounting.counts[-1]) + grammar_tokens(format_, encoder)})
    if progress is not None:
        progress(len(formats), len(formats), "")
    return pd.DataFrame(rows, columns=["format", "lossless", "coverage_tokens", "full_tokens"])
