"""A context to ask about: one cut's coordinates, its kept text and token count, and the traversal accuracy on it."""

from __future__ import annotations

from dataclasses import dataclass

from core.queries import Query


@dataclass(frozen=True)
class Context:
    """One cut to ask about: its coordinates, the kept text, its token count and the sweep's traversal
    accuracy of `query` on it (the oracle's exact match must equal it)."""

    query: Query
    format: str
    ordering: str
    policy: str
    budget_tokens: int
    text: str
    context_tokens: int
    traversal_accuracy: float | None = None
    layout: str = "nodes_then_edges"
