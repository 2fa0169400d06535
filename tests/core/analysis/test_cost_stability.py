"""Cost stability: the spreads equal the tokenizer's own counts of the relabelled and reordered renderings."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given, settings

from core.analysis.cost_stability import (
    RELABELINGS,
    CostSpread,
    cost_stability,
    opaque_id,
    relabeled,
    relabeling,
    stability_rows,
)
from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.samples import load_sample, sample_names
from core.tokens import TOKENIZERS
from tests.strategies import graphs

O200K = TOKENIZERS.get("o200k_base")
CHECKED = ["csv", "jsonld", "cypher", "mermaid", "semantic_text", "adjacency_list"]


def direct_count(graph: Graph, format_name: str, units=None) -> int:
    text = FORMATS.get(format_name).render(graph, graph_units(graph) if units is None else units).text
    return len(O200K.encode(text))


def test_relabelling_renames_only_the_node_ids():
    graph = Graph.build([Node("svc-api", "service", (("tier", 1),)), Node("db", "database")],
                        [Edge("svc-api", "reads", "db", (("w", 2),))])
    numbers = relabeled(graph, "numbers")
    assert numbers == Graph.build([Node("1", "service", (("tier", 1),)), Node("0", "database")],
                                  [Edge("1", "reads", "0", (("w", 2),))])
    opaque = relabeled(graph, "opaque")
    assert {node.id for node in opaque.nodes} == {opaque_id("svc-api"), opaque_id("db")}
    assert relabeled(graph, "names") is graph
    with pytest.raises(ParameterError):
        relabeling(graph, "colours")


@settings(max_examples=50)
@given(graph=graphs())
def test_relabelling_keeps_the_structure_of_hostile_graphs(graph):
    for scheme in RELABELINGS:
        names = relabeling(graph, scheme)
        assert len(set(names.values())) == len(graph.nodes)
        renamed = relabeled(graph, scheme)
        assert sorted((names[edge.source], edge.relation, names[edge.target]) for edge in graph.edges) == \
            sorted((edge.source, edge.relation, edge.target) for edge in renamed.edges)


@pytest.mark.parametrize("sample", sample_names())
def test_every_figure_is_the_tokenizers_own_count_on_every_sample(sample):
    graph = load_sample(sample)
    found = {item.format_name: item for item in cost_stability(graph, "o200k_base", CHECKED, permutations=3, seed=7)}
    for name in CHECKED:
        relabel = [direct_count(relabeled(graph, scheme), name) for scheme in RELABELINGS]
        assert found[name].relabeled.counts == tuple(relabel)
        orders = []
        for seed in (7, 8, 9):
            units = list(graph_units(graph))
            random.Random(seed).shuffle(units)
            orders.append(direct_count(graph, name, units))
        assert found[name].permuted.counts == tuple(orders)
        spread = found[name].relabeled
        assert (spread.minimum, spread.median, spread.maximum) == (min(relabel), statistics.median(relabel),
                                                                   max(relabel))
        assert spread.ratio == max(relabel) / min(relabel)


def test_numbers_cost_less_than_names_on_the_reference_graph_and_the_table_says_so():
    graph = load_sample("reference-services")
    (csv,) = cost_stability(graph, "o200k_base", ["csv"], permutations=2)
    names, _, numbers = csv.relabeled.counts
    assert numbers < names and csv.relabeled.ratio > 1.5
    rows = stability_rows([csv])
    assert rows["relabel max/min"] == [round(csv.relabeled.ratio, 3)] and rows["order min"] == [csv.permuted.minimum]


def test_a_spread_reports_min_median_max_and_their_ratio():
    spread = CostSpread(("a", "b", "c", "d"), (10, 12, 30, 11))
    assert (spread.minimum, spread.median, spread.maximum, spread.ratio) == (10, 11.5, 30, 3.0)
    assert spread.as_dict() == {"counts": {"a": 10, "b": 12, "c": 30, "d": 11}, "min": 10, "median": 11.5,
                                "max": 30, "max_over_min": 3.0}


def test_the_number_of_orders_is_checked():
    with pytest.raises(ParameterError):
        cost_stability(load_sample("tinkerpop-modern"), "o200k_base", ["csv"], permutations=0)
