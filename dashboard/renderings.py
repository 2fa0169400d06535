"""The rendering a page shows for the sidebar's selection: which seeds it depends on, its cached accounting, its key.

Shared by the Contexts, Graph, Walkthrough and Exports pages, so each shows the very rendering the others cut.
"""

from __future__ import annotations

from core.formats import FORMATS
from core.retrieval import ORDERINGS
from core.retrieval.ordering import rendering_seeds
from core.specs import RenderingSpec
from core.tokens.prefix_tokens import PrefixTokens
from dashboard import cache
from dashboard.sidebar import Selection


def seeds_for(selection: Selection, format_name: str) -> tuple[str, ...]:
    return rendering_seeds(FORMATS.get(format_name).uses_hops, ORDERINGS.get(selection.ordering),
                           selection.seeds.node_ids)


def spec_for(selection: Selection, format_name: str) -> RenderingSpec:
    """The rendering the selection shows in this format: its spec carries the one key every page keeps it under."""
    graph, ordering = selection.graph, ORDERINGS.get(selection.ordering)
    return cache.rendering_spec(graph, format_name, selection.ordering, selection.layout,
                                seeds_for(selection, format_name),
                                selection.evidence if ordering.uses_evidence else frozenset(), selection.tokenizer,
                                selection.query.question_on(graph) if ordering.uses_question else "")


def accounting_for(selection: Selection, format_name: str) -> PrefixTokens:
    return cache.account(spec_for(selection, format_name))


def rendering_key(selection: Selection, format_name: str) -> str:
    """Everything a rendering depends on, as one text key (the budget and policy are not part of it)."""
    return spec_for(selection, format_name).digest
