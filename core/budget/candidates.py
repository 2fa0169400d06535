"""What the selecting policies weigh: each unit's relevance (the ordering's scores) and token cost.

See `core.budget.selection` for how relevance and cost are defined; this module only computes them from
an accounted rendering, for the selection and the connected policies alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.budget.policies import CutRequest
from core.graph.units import Unit


@dataclass(frozen=True)
class Item:
    """A group of units kept or dropped together (a record, or one unit), with its relevance and token cost."""

    keys: tuple[str, ...]
    relevance: float
    cost: int
    position: int  # in the rendering: ties go to the earlier


@dataclass(frozen=True)
class Candidates:
    """The rendering's units in its order, their relevance, and its records as items."""

    units: tuple[Unit, ...]  # in rendering order, each key once
    relevance: dict[str, float]
    records: tuple[Item, ...]
    unit_cost: dict[str, float]  # a record's cost shared by its units
    empty_tokens: int  # the empty document


def candidates(request: CutRequest) -> Candidates:
    accounting, graph, units = request.accounting, request.graph, request.units
    assert graph is not None and units is not None
    by_key = {unit.key: unit for unit in units}
    records = accounting.rendering.records
    ordered = list({key: by_key[key] for record in records for key in record.unit_keys if key in by_key}.values())
    relevance = ordering_relevance(request, ordered) or unit_relevance(ordered)
    counts = accounting.counts
    items: list[Item] = []
    unit_cost: dict[str, float] = {}
    for index, record in enumerate(records):
        keys = tuple(key for key in record.unit_keys if key in by_key)
        if not keys:
            continue
        cost = max(1, int(counts[index + 1]) - int(counts[index]))
        items.append(Item(keys, sum(relevance[key] for key in keys), cost, index))
        for key in keys:
            unit_cost.setdefault(key, cost / len(keys))
    return Candidates(tuple(ordered), relevance, tuple(items), unit_cost, int(counts[0]))


FLOOR = 1e-6  # a unit the scores do not reach still fills space nothing more relevant wants


def ordering_relevance(request: CutRequest, ordered: Sequence[Unit]) -> dict[str, float] | None:
    """The ordering's own scores (PPR, BM25, centrality, hop level), scaled so the best unit has 1; None when
    the ordering has none, its inputs are unknown, or no unit scores above 0."""
    ordering, inputs, graph = request.ordering, request.inputs, request.graph
    if ordering is None or inputs is None or graph is None or ordering.relevance is None:
        return None
    scores = ordering.relevance(graph, ordered, inputs)
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return None
    return {unit.key: max(scores.get(unit.key, 0.0) / best, FLOOR) for unit in ordered}


def unit_relevance(ordered: Sequence[Unit]) -> dict[str, float]:
    """Reciprocal rank among the nodes; an edge has its weaker endpoint's (see the module's note)."""
    relevance: dict[str, float] = {}
    node_relevance: dict[str, float] = {}
    nodes = [(unit.key, unit.node) for unit in ordered if unit.is_node]
    for rank, (key, node) in enumerate(nodes):
        relevance[key] = node_relevance[node.id] = 1.0 / (rank + 1)
    edges = [(unit.key, unit.edge) for unit in ordered if not unit.is_node]
    for rank, (key, edge) in enumerate(edges):
        source, target = node_relevance.get(edge.source), node_relevance.get(edge.target)
        relevance[key] = min(source, target) if source is not None and target is not None \
            else 1.0 / (len(nodes) + rank + 1)
    return relevance
