"""The cut report: kept and cut keys partition the rendering's keys, evidence lost, and what did not fit next."""

from __future__ import annotations

import json

import pytest

from core.budget import POLICIES
from core.budget.cut_report import cut_report
from core.budget.policies import cut
from core.cli import main
from core.formats import FORMATS
from core.graph.hops import hop_units
from core.io.generate import service_graph
from core.queries import IMPACT_OWNERS, query
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, order_units
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

GRAPH = service_graph(12, 12, 3)
SEEDS = ("db-identity",)
QUERY = query(IMPACT_OWNERS, failed="db-identity")
EVIDENCE = QUERY.solve(GRAPH).evidence


def accounted(name: str):
    units = hop_units(GRAPH, SEEDS)
    ordered = order_units(GRAPH, units, ORDERINGS.get("hop_tiers"), "nodes_then_edges", OrderingInputs(seeds=SEEDS))
    return prefix_tokens(FORMATS.get(name).render(GRAPH, ordered), TOKENIZERS.get("o200k_base"),
                         source=(GRAPH, units))


@pytest.mark.parametrize("policy", POLICIES.names())
@pytest.mark.parametrize("budget", [150, 400])
def test_the_report_partitions_the_keys_and_names_what_was_lost(policy, budget):
    accounting = accounted("csv")
    result = cut(accounting, FORMATS.get("csv"), policy, budget)
    report = json.loads(json.dumps(cut_report(result, accounting, {"q": EVIDENCE})))  # plain JSON
    assert set(report["kept"]) == set(result.kept_keys)
    assert sorted(report["kept"] + report["cut"]) == sorted(accounting.record_of_key)
    assert report["evidence_lost"]["q"] == sorted(EVIDENCE - set(result.kept_keys))
    assert report["next"] == list(result.first_dropped_keys)
    assert set(report["next"]) <= set(report["cut"])
    if policy == "record" and report["cut"]:
        # the next record fits from its budget on, and the cut at that budget keeps it
        bigger = cut(accounting, FORMATS.get("csv"), "record", report["next_budget"])
        assert set(report["next"]) <= set(bigger.kept_keys)


def test_sweep_writes_every_cuts_report(tmp_path, capsys):
    path = tmp_path / "cuts.json"
    code = main(["sweep", "--graph", "online-boutique", "--formats", "csv", "--orderings", "hop_tiers",
                 "--layouts", "nodes_then_edges", "--policies", "record,knapsack", "--budgets", "200,600",
                 "--output", str(tmp_path / "rows.csv"), "--cut-report", str(path), "--no-progress"])
    assert code == 0 and "4 cut reports written" in capsys.readouterr().out
    cuts = json.loads(path.read_text(encoding="utf-8"))["cuts"]
    assert [(item["policy"], item["budget"]) for item in cuts] == [("record", 200), ("record", 600),
                                                                   ("knapsack", 200), ("knapsack", 600)]
    assert all({"kept", "cut", "evidence_lost", "next"} <= set(item) for item in cuts)
