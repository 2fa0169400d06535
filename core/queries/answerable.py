"""Whether a query has an answer on a graph: one a context holding nothing would not give as well.

A query whose gold answer on the full graph equals its answer on an empty graph ("the prerequisites of a
concept that has none": `[]`) is answered by every cut that parses, the one keeping no record included, so
it cannot tell two cuts apart. Asked alone it is refused (`require_answer`); in a question set it is left
out and counted. Comparing with the empty graph's answer, rather than testing for `[]`, covers every
template alike: `owners_of` of a node without owners answers `{"a": []}` on any graph, and a T5 question
about two unlabelled, unrelated concepts names both ids whatever the context holds.
"""

from __future__ import annotations

import json

from core.errors import ParameterError
from core.graph.model import Graph
from core.queries.model import Answer, Query, Solution

_EMPTY = Graph.build([], [])
_SHOWN = 120  # characters of the answer a message quotes


def blank_answer(query: Query) -> Answer:
    """The answer on a graph with no node and no edge: what a context holding nothing gives."""
    return query.solve(_EMPTY).answer


def has_answer(query: Query, gold: Solution) -> bool:
    """Whether `gold` (the query's solution on the full graph) is not what a context holding nothing gives."""
    return not gold.accepts(blank_answer(query))


def no_answer_reason(query: Query, gold: Solution) -> str:
    """The sentence that says why the query measures nothing on this graph (for a refusal or a count)."""
    shown = json.dumps(gold.answer, ensure_ascii=False, default=str)
    shown = shown if len(shown) <= _SHOWN else shown[:_SHOWN] + "…"
    return (f"{query.label} has no answer on this graph: its answer, {shown}, is what a context holding nothing "
            "gives too, so every cut that parses would score as answering")


def require_answer(query: Query, graph: Graph, gold: Solution | None = None) -> None:
    """Refuse a query asked alone whose answer on `graph` is empty (it would score every cut correct)."""
    gold = query.solve(graph) if gold is None else gold
    if not has_answer(query, gold):
        raise ParameterError(no_answer_reason(query, gold), f"query {query.name}",
                             "ask about a node that has what the question asks for (another concept, another "
                             "failed service, a pair that is connected), or another query")
