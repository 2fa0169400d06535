"""The Token anatomy page's figures: each format's anatomy (core.tokens.token_anatomy) at the page's settings."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.analysis.budget_sweep import effective_layout, ordering_inputs
from core.analysis.sweep import accounted_rendering
from core.budget.policies import cut
from core.graph.model import Graph
from core.queries import Query
from core.registry import FORMATS, ORDERINGS, TOKENIZERS
from core.retrieval.seeds import Seeds
from core.tokens.token_anatomy import Anatomy, cut_anatomy, rendering_anatomy


def format_anatomies(graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], ordering: str,
                     layout: str, tokenizer: str, budget: int | None = None, policy: str = "record",
                     marker: bool = False, progress: Callable[[int, int, str], None] | None = None
                     ) -> list[Anatomy]:
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
        accounting = accounted_rendering(graph, format_, ordering_, effective_layout(name, layout), inputs, encoder)
        if budget is None:
            anatomies.append(rendering_anatomy(accounting.rendering, format_, encoder))
        else:
            anatomies.append(cut_anatomy(cut(accounting, format_, policy, budget, marker=marker), format_, encoder))
    if progress is not None:
        progress(len(formats), len(formats), "")
    return anatomies
