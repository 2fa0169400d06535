"""The contexts an evaluation asks about: budget cuts of every format x ordering x policy x budget, per query.

Each cut comes from the budget engine (ordering, rendering, exact prefix tokens, cut) and carries
the traversal accuracy of its query: decode the cut's document, run the solver, compare with the
gold answer on the full graph (0 when it does not decode). The oracle reader must reproduce it.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from core.budget import cut
from core.errors import FormatError
from core.evaluate.run import Context
from core.graph import Graph
from core.hops import hop_units
from core.ordering import OrderingInputs, order_units
from core.prefix_tokens import prefix_tokens
from core.queries import Query
from core.registry import FORMATS, ORDERINGS, TOKENIZERS
from core.units import graph_units


def traversal_accuracy(format_name: str, document: str, query: Query, gold: object) -> float:
    """1.0 when the query's solver gives the gold answer on the decoded document, else 0.0."""
    try:
        decoded = FORMATS.get(format_name).decode(document)
    except FormatError:
        return 0.0
    return 1.0 if query.solve(decoded).answer == gold else 0.0


def cut_contexts(graph: Graph, queries: Sequence[Query], formats: Iterable[str], orderings: Iterable[str],
                 policies: Iterable[str], budgets: Iterable[int], tokenizer: str = "o200k_base", *,
                 seeds: Sequence[str] = (), layout: str = "nodes_then_edges", shuffle_seed: int = 0,
                 direction: str = "both", marker: bool = False) -> list[Context]:
    """Every (query, format, ordering, policy, budget) cut as a Context, in that nesting order.

    An interleaved layout applies to the formats that allow it; the others keep nodes then edges.
    A rendering is tokenized once per (format, ordering) and shared by every budget and policy (and
    by every query, unless the ordering uses the query's evidence).
    """
    counter = TOKENIZERS.get(tokenizer)
    units = hop_units(graph, seeds, direction) if seeds else graph_units(graph)
    formats, orderings, policies, budgets = list(formats), list(orderings), list(policies), list(budgets)
    accounted: dict[tuple, object] = {}
    contexts = []
    for query in queries:
        solution = query.solve(graph)
        inputs = OrderingInputs(tuple(seeds), solution.evidence, shuffle_seed, direction)
        for format_name in formats:
            format_ = FORMATS.get(format_name)
            for ordering_name in orderings:
                ordering = ORDERINGS.get(ordering_name)
                key = (format_name, ordering_name, solution.evidence if ordering.uses_evidence else None)
                if key not in accounted:
                    arranged = layout if format_.interleaves else "nodes_then_edges"
                    ordered = order_units(graph, units, ordering, arranged, inputs)
                    accounted[key] = prefix_tokens(format_.render(graph, ordered), counter)
                for policy in policies:
                    for budget in budgets:
                        piece = cut(accounted[key], format_, policy, budget, marker=marker)
                        accuracy = traversal_accuracy(format_name, piece.document, query, solution.answer)
                        contexts.append(Context(query, format_name, ordering_name, policy, budget, piece.text,
                                                piece.tokens, accuracy))
    return contexts
