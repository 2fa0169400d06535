"""What a property filter saves per format, and the refusal to drop a property a query needs.

Tokens are exact: each format renders the whole graph (canonical order) before and after the filter,
and the tokenizer counts both texts. A property is needed when dropping it changes a query's gold
answer (a learning graph's `label`, which its answers are written in): the filter is refused, naming
the property, the query and how to keep it, never applied silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.model import Graph
from core.graph.property_filter import PropertyFilter, dropped_properties, filter_properties, restoring
from core.graph.units import graph_units
from core.queries import Query
from core.tokens import TOKENIZERS


@dataclass(frozen=True)
class PropertySaving:
    format: str
    tokens_before: int
    tokens_after: int

    @property
    def saved(self) -> int:
        return self.tokens_before - self.tokens_after


def property_savings(graph: Graph, filtered: Graph, format_names: Sequence[str] | None = None,
                     tokenizer: str = "o200k_base") -> tuple[PropertySaving, ...]:
    """Per format: the complete rendering's tokens before and after the filter."""
    encoder = TOKENIZERS.get(tokenizer)
    savings = []
    for name in format_names or FORMATS.names():
        format_ = FORMATS.get(name)
        before = encoder.count(format_.render(graph, graph_units(graph)).text)
        after = before if filtered is graph else encoder.count(format_.render(filtered, graph_units(filtered)).text)
        savings.append(PropertySaving(name, before, after))
    return tuple(savings)


def needed_properties(graph: Graph, chosen: PropertyFilter, queries: Sequence[Query]
                      ) -> tuple[tuple[str, str, str], ...]:
    """(kind, name, query label) of each dropped property without which a query's answer changes."""
    filtered = filter_properties(graph, chosen)
    needed = []
    for query in queries:
        gold = query.solve(graph).answer
        if query.solve(filtered).answer == gold:
            continue
        dropped = dropped_properties(graph, chosen)
        culprits = [item for item in dropped
                    if query.solve(filter_properties(graph, restoring(chosen, *item))).answer == gold]
        needed += [(kind, name, query.label) for kind, name in (culprits or dropped)]
    return tuple(needed)


def check_needed_properties(graph: Graph, chosen: PropertyFilter, queries: Sequence[Query]) -> None:
    """Refuse a filter that drops a property a query needs (a ParameterError naming it)."""
    needed = needed_properties(graph, chosen, queries)
    if needed:
        named = "; ".join(f"{kind} property {name!r} (query {label})" for kind, name, label in needed)
        raise ParameterError(f"the property filter ({chosen.describe()}) drops what the query needs: {named}",
                             "property filter", "keep those properties: narrow the pattern or add them to the "
                                                "properties kept")
