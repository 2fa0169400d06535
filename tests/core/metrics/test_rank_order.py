"""Rank inversions: 0 for prefix cuts; a hand count where a selecting cut's format writes its units out of order."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.budget import DEFAULT_POLICIES
from core.budget.policies import cut
from core.budget.sections import Sections
from core.formats import FORMATS
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.metrics.rank_order import rank_inversions
from core.pipeline import accounted_rendering
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS

# TinkerPop's "modern" graph: marko (1) knows 2 and 4 and created 3; 4 created 3 and 5; 6 created 3.
MODERN = Graph.build([Node("1", "person"), Node("2", "person"), Node("3", "software"), Node("4", "person"),
                      Node("5", "software"), Node("6", "person")],
                     [Edge("1", "knows", "2"), Edge("1", "knows", "4"), Edge("1", "created", "3"),
                      Edge("4", "created", "3"), Edge("4", "created", "5"), Edge("6", "created", "3")])


def accounted(format_name: str):
    spec = RenderingSpec.from_names(MODERN, format_name, seeds=("1",))
    return accounted_rendering(spec)


@pytest.mark.parametrize("policy", DEFAULT_POLICIES)
def test_a_prefix_cut_keeps_the_rank_order_by_construction(policy):
    accounting = accounted("semantic_text")
    for budget in range(0, accounting.total + 200, 40):
        assert rank_inversions(cut(accounting, FORMATS.get("semantic_text"), policy, budget), accounting) == 0


def test_a_sections_cut_whose_format_moves_an_edge_is_counted_by_hand():
    accounting = accounted("semantic_text")
    # The canonical rendering: node 1's page holds its three edges, node 3's page holds 4->3 and 6->3, node 4's
    # page holds 4->5.
    assert [record.unit_keys for record in accounting.rendering.records] == [
        ("n:1", "e:1|created|3", "e:1|knows|2", "e:1|knows|4"), ("n:2",), ("n:3", "e:4|created|3", "e:6|created|3"),
        ("n:4", "e:4|created|5"), ("n:5",), ("n:6",)]
    semantic = FORMATS.get("semantic_text")
    first_node = [unit for unit in graph_units(MODERN) if unit.key == "n:1"]
    o200k = TOKENIZERS.get("o200k_base")
    node_one = o200k.count(semantic.render(MODERN, first_node).text) - o200k.count(semantic.render(MODERN, []).text)
    result = cut(accounting, semantic, "sections", 10_000, sections=Sections(node_tokens=node_one, edge_tokens=5_000))
    # Only node 1 fits the node section, every edge the edge section: the edges from 4 and 6 are written under
    # stand-in pages for their sources ("node record not included"):
    assert [record.unit_keys for record in result.rendering.records] == [
        ("n:1", "e:1|created|3", "e:1|knows|2", "e:1|knows|4"), ("e:4|created|3", "e:4|created|5"),
        ("e:6|created|3",)]
    # Ranks (record in the rendering): 4->3 is 2, 4->5 is 3, 6->3 is 2. In the cut 4->5 (rank 3) comes before
    # 6->3 (rank 2): one pair out of order; 4->3 and 6->3 share a rank, so they are no pair.
    assert rank_inversions(result, accounting) == 1


def test_the_lab_s_selecting_policies_write_a_line_format_in_rank_order():
    units = graph_units(MODERN)
    accounting = accounted("jsonl")
    assert len(units) == accounting.records
    for policy in ("sections", "density", "knapsack", "connected"):
        for budget in (60, 120, 240):
            result = cut(accounting, FORMATS.get("jsonl"), policy, budget)
            assert rank_inversions(result, accounting) == 0, (policy, budget)


def test_a_cut_that_writes_kept_units_backwards_counts_every_pair():
    accounting = accounted("jsonl")
    forward = cut(accounting, FORMATS.get("jsonl"), "knapsack", 10_000)
    nodes = [unit for unit in graph_units(MODERN) if unit.is_node]
    reordered = replace(forward, rendering=FORMATS.get("jsonl").render(MODERN, nodes[::-1]))
    assert rank_inversions(reordered, accounting) == 15  # six nodes written last to first: every pair of the 6
