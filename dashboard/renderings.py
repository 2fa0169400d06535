"""The rendering a page shows for the sidebar's selection: which seeds it depends on, its cached accounting, its key.

Shared by the Contexts, Graph, Walkthrough and Exports pages, so each shows the very rendering the others cut.
"""

from __future__ import annotations

from core.registry import FORMATS, ORDERINGS
from core.retrieval.ordering import rendering_seeds
from core.tokens.prefix_tokens import PrefixTokens
from dashboard import cache
from dashboard.sidebar import Selection


def seeds_for(selection: Selection, format_name: str) -> tuple[str, ...]:
    return rendering_seeds(FORMATS.get(format_name).uses_hops, ORDERINGS.get(selection.ordering),
                           selection.seeds.node_ids)


def accounting_for(selection: Selection, format_name: str) -> PrefixTokens:
    graph = selection.graph
    ordering = ORDERINGS.get(selection.ordering)
    return cache.accounted_rendering(graph.content_key, graph, format_name, selection.ordering, selection.layout,
                                     seeds_for(selection, format_name),
                                     selection.query_key if ordering.uses_evidence else "",
                                     selection.evidence if ordering.uses_evidence else frozenset(), selection.tokenizer,
                                     selection.query.question_on(graph) if ordering.uses_question else "")


def rendering_key(selection: Selection, format_name: str) -> str:
    """Everything a rendering depends on, as one cache key (the budget and policy are not part of it)."""
    return "|".join((selection.graph.content_key, format_name, selection.ordering, selection.layout,
                     repr(seeds_for(selection, format_name)), selection.query_key, selection.tokenizer))
