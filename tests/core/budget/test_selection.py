"""The policies that select: density, knapsack (exact, checked by brute force) and connected (connected, holding
the seeds); every non-empty cut parses and fits its budget, counted exactly."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.budget import POLICIES, selection
from core.budget.candidates import candidates
from core.budget.policies import CutRequest, cut, grammar_tokens
from core.budget.selection import KNAPSACK_CELLS, knapsack
from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.hops import hop_units
from core.io.generate import service_graph
from core.metrics.cut_metrics import decode_cut
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, order_units
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

O200K = TOKENIZERS.get("o200k_base")
SERVICES = service_graph(12, 12, 3)
SEEDS = ("db-identity",)
SELECTING = ("density", "knapsack", "connected")


def accounted(name: str, graph=SERVICES, ordering: str = "personalized_pagerank", seeds=SEEDS,
              layout: str = "nodes_then_edges"):
    units = hop_units(graph, seeds)
    ordered = order_units(graph, units, ORDERINGS.get(ordering), layout, OrderingInputs(seeds=seeds))
    return prefix_tokens(FORMATS.get(name).render(graph, ordered), O200K, source=(graph, units))


def test_the_policies_are_registered_objects():
    assert POLICIES.names() == ["raw", "record", "sections", "density", "knapsack", "connected"]
    assert [POLICIES.get(name).prefix for name in POLICIES] == [True, True, False, False, False, False]
    assert all(POLICIES.get(name).always_parses for name in SELECTING)
    with pytest.raises(ParameterError, match="density, knapsack, connected"):
        cut(accounted("csv"), FORMATS.get("csv"), "greedy", 100)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(1, 12)), max_size=9), st.integers(0, 40))
def test_knapsack_is_the_brute_force_optimum(items, capacity):
    values, costs = [value / 7 for value, _ in items], [cost for _, cost in items]
    chosen = knapsack(values, costs, capacity)
    assert sum(costs[index] for index in chosen) <= capacity
    best = brute_force_best(values, costs, capacity) if items else 0.0
    assert sum(values[index] for index in chosen) == pytest.approx(best)


def brute_force_best(values, costs, capacity) -> float:
    """The largest summed value of any subset whose summed cost fits, over all 2^n subsets at once."""
    count = len(values)
    masks = (np.arange(2 ** count)[:, None] >> np.arange(count)) & 1
    fits = masks @ np.array(costs) <= capacity
    return float((masks @ np.array(values))[fits].max()) if capacity >= 0 else 0.0


@pytest.mark.parametrize("name", ["csv", "jsonl", "typed_edges", "compact_json"])
@pytest.mark.parametrize("budget", [90, 150, 260])
def test_the_knapsack_cut_keeps_the_brute_force_optimum_of_its_records(name, budget):
    graph = service_graph(2, 2, 0)
    accounting = accounted(name, graph=graph, seeds=("db-identity",))
    format_ = FORMATS.get(name)
    grammar = grammar_tokens(format_, O200K)
    result = cut(accounting, format_, "knapsack", budget)
    found = candidates(CutRequest(accounting, format_, budget, budget - grammar, grammar, True, False,
                                  *accounting.source))
    records = found.records
    assert len(records) <= 18  # small enough to enumerate every subset
    kept = set(result.kept_keys)
    value = sum(item.relevance for item in records if set(item.keys) <= kept)
    best = brute_force_best([item.relevance for item in records], [item.cost for item in records],
                            budget - grammar - found.empty_tokens)
    assert result.budgeted_tokens <= budget
    assert value == pytest.approx(best)


def test_a_knapsack_over_the_bound_is_refused_with_its_reason_never_greedy(monkeypatch):
    accounting = accounted("csv")
    format_ = FORMATS.get("csv")
    records = len(candidates(CutRequest(accounting, format_, 0, 0, 0, True, False, *accounting.source)).records)
    budget = 400  # less than the whole rendering: an optimisation is needed
    assert accounting.total > budget
    monkeypatch.setattr(selection, "KNAPSACK_CELLS", records * 100)  # below records x (capacity + 1)
    result = cut(accounting, format_, "knapsack", budget)
    assert result.empty and result.kept_keys == ()
    assert result.explanation.startswith("the knapsack is refused") and f"{records:,} records" in result.explanation
    assert f"over the bound of {records * 100:,}" in result.explanation
    monkeypatch.setattr(selection, "KNAPSACK_CELLS", KNAPSACK_CELLS)
    assert not cut(accounting, format_, "knapsack", budget).empty  # the same instance within the bound


def kept_graph(result):
    kept = set(result.kept_keys)
    graph = nx.Graph()
    graph.add_nodes_from(key[2:] for key in kept if key.startswith("n:"))
    for unit in hop_units(SERVICES, SEEDS):
        if not unit.is_node and unit.key in kept:
            graph.add_edge(unit.edge.source, unit.edge.target)
    return graph


@pytest.mark.parametrize("name", ["csv", "jsonl", "pretty_json", "incident_text"])
@pytest.mark.parametrize("budget", [120, 300, 700, 5000])
def test_connected_keeps_the_seeds_and_a_connected_subgraph(name, budget):
    result = cut(accounted(name), FORMATS.get(name), "connected", budget)
    assert result.budgeted_tokens <= budget
    if result.empty:
        return
    graph = kept_graph(result)
    assert set(SEEDS) <= set(graph.nodes)
    assert nx.is_connected(graph)
    assert all(node in graph for key in result.kept_keys if key.startswith("e:")
               for node in key[2:].split("|")[::2][:2])  # no edge without both endpoints


def test_connected_grows_as_the_budget_grows():
    sizes = [len(cut(accounted("csv"), FORMATS.get("csv"), "connected", budget).kept_keys)
             for budget in (150, 300, 600, 1200)]
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0]


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(FORMATS.names()), policy=st.sampled_from(SELECTING), budget=st.integers(0, 900),
       ordering=st.sampled_from(["hop_tiers", "question_bm25", "shuffled"]), marker=st.booleans())
def test_every_cut_fits_is_counted_exactly_and_parses(name, policy, budget, ordering, marker):
    format_ = FORMATS.get(name)
    accounting = accounted(name, ordering=ordering)
    result = cut(accounting, format_, policy, budget, marker=marker)
    assert result.selection and (result.empty or result.budgeted_tokens <= budget)
    assert result.tokens == (O200K.count(result.text) if result.text else 0)
    if not result.empty:
        decoded = decode_cut(result, format_)
        assert decoded.graph is not None, decoded.error
        assert set(result.kept_keys) <= set(accounting.record_of_key)
    else:
        assert result.explanation


def test_density_prefers_relevance_per_token():
    accounting = accounted("csv")
    result = cut(accounting, FORMATS.get("csv"), "density", 200)
    found = candidates(CutRequest(accounting, FORMATS.get("csv"), 200, 0, 0, True, False, *accounting.source))
    kept = set(result.kept_keys)
    density = {item.keys: item.relevance / item.cost for item in found.records}
    kept_items = [keys for keys in density if set(keys) <= kept]
    left_out = [keys for keys in density if not set(keys) & kept]
    cheapest_left = min((item.cost for item in found.records if item.keys in left_out), default=0)
    # a record left out either has a lower density than every kept one, or did not fit in what was left
    assert kept_items and all(density[keys] <= max(density[kept] for kept in kept_items) for keys in left_out)
    assert result.budgeted_tokens + cheapest_left > 200 - 5 or not left_out


def test_relevance_is_the_orderings_own_scores_where_it_has_them():
    from core.metrics.coverage import seed_region
    from core.pipeline import accounted_rendering
    from core.retrieval.relevance import personalized_pagerank
    from core.specs import RenderingSpec

    spec = RenderingSpec.from_names(SERVICES, "csv", ordering_name="personalized_pagerank", seeds=SEEDS)
    accounting = accounted_rendering(spec, region=seed_region(SERVICES, SEEDS))
    graph, units, ordering, inputs = accounting.source
    found = candidates(CutRequest(accounting, spec.format, 0, 0, 0, True, False, graph, units, ordering=ordering,
                                  inputs=inputs))
    scores = personalized_pagerank(SERVICES, SEEDS)
    best = max(scores[unit.node.id] for unit in units if unit.is_node)
    for unit in units:
        if unit.is_node:
            assert found.relevance[unit.key] == pytest.approx(max(scores[unit.node.id] / best, 1e-6))
        else:  # an edge is as relevant as its weaker endpoint
            weaker = min(scores[unit.edge.source], scores[unit.edge.target])
            assert found.relevance[unit.key] == pytest.approx(max(weaker / best, 1e-6))
    # through cut(): the same relevance, and a density cut keeps the best value per token first
    result = cut(accounting, spec.format, "density", 300)
    kept = set(result.kept_keys)
    density = sorted(found.records, key=lambda item: -item.relevance / item.cost)
    assert set(density[0].keys) <= kept


def test_an_ordering_without_scores_falls_back_to_reciprocal_rank():
    from core.pipeline import accounted_rendering
    from core.specs import RenderingSpec

    spec = RenderingSpec.from_names(SERVICES, "csv", ordering_name="canonical", seeds=SEEDS)
    accounting = accounted_rendering(spec)
    graph, units, ordering, inputs = accounting.source
    assert ordering.relevance is None
    found = candidates(CutRequest(accounting, spec.format, 0, 0, 0, True, False, graph, units, ordering=ordering,
                                  inputs=inputs))
    nodes = [unit for unit in found.units if unit.is_node]
    assert [found.relevance[unit.key] for unit in nodes[:3]] == [1.0, 0.5, pytest.approx(1 / 3)]
