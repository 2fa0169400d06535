"""The Token anatomy page's figures: each format's anatomy (core.analysis.token_anatomy) at the page's settings."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.analysis.budget_sweep import effective_layout, ordering_inputs
from core.analysis.token_anatomy import Anatomy, cut_anatomy, rendering_anatomy
from core.budget.policies import cut
from core.formats import FORMATS
from core.graph.model import Graph
from core.memory.rendering_cache import RenderingCache
from core.pipeline import accounted_rendering
from core.queries import Query
from core.retrieval import ORDERINGS
from core.retrieval.seeds import Seeds
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS


def format_anatomies(graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], ordering: str,
                     layout: str, tokenizer: str, budget: int | None = None, policy: str = "record",
                     marker: bool = False, progress: Callable[[int, int, str], None] | None = None,
                     cache: RenderingCache | None = None) -> list[Anatomy]:
    """Each format's token anatomy: of its complete text (budget None) or of its cut at the budget.

    `progress` hears (formats done, formats in all, the format being read) before each format and at the end."""
    encoder = TOKENIZERS.get(tokenizer)
    ordering_ = ORDERINGS.get(ordering)
    inputs = ordering_inputs(graph, query, seeds, ordering)
    anatomies = []
    for index, name in enumerate(formats):
        if progress is not None:
            progress(index, len(formats), name)
        format_ = FORMATS.get(name)
        spec = RenderingSpec(graph, format_, ordering_, effective_layout(name, layout), inputs, encoder)
        accounting = accounted_rendering(spec, cache=cache)
        if budget is None:
            anatomies.append(rendering_anatomy(accounting.rendering, format_, encoder))
        else:
            anatomies.append(cut_anatomy(cut(accounting, format_, policy, budget, marker=marker), format_, encoder))
    if progress is not None:
        progress(len(formats), len(formats), "")
    return anatomies
