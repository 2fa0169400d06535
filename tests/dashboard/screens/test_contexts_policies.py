"""Contexts, policies side by side: the prefix policies beside a selecting one, which units each keeps (core's
cuts), and the cut report offered for download."""

from __future__ import annotations

from core.budget.policies import cut
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample
from core.pipeline import accounted_rendering
from core.retrieval import ORDERINGS
from core.retrieval.ordering import inputs_for
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from tests.dashboard.conftest import metric, on_page, started


def core_kept(format_name: str, policy: str, budget: int) -> set[str]:
    sample = default_sample()
    graph = load_sample(sample.name)
    ordering = ORDERINGS.get("canonical")
    inputs = inputs_for(ordering, sample.seeds)
    accounting = accounted_rendering(RenderingSpec(graph, FORMATS.get(format_name), ordering, "nodes_then_edges",
                                                   inputs, TOKENIZERS.get("o200k_base")))
    return set(cut(accounting, FORMATS.get(format_name), policy, budget).kept_keys)


def test_a_selecting_policy_is_shown_beside_the_prefix_policies_with_the_units_each_keeps():
    app = on_page(started(budget="700", policy="knapsack"), "contexts")
    app.button_group(key="compare").set_value("policies").run()
    assert not app.exception
    first = FORMATS.names()[0]
    headers = [subheader.value for subheader in app.subheader]
    assert headers[:3] == [f"{first} · raw", f"{first} · record", f"{first} · knapsack"]
    assert len(metric(app, "Parses")) == 3 and metric(app, "Parses")[2] == "yes"
    table = app.dataframe[-1].value
    for policy in ("raw", "record", "knapsack"):
        assert set(table[table[policy]]["unit"]) == core_kept(first, policy, 700)
    assert set(table.columns) == {"unit", "evidence", "raw", "record", "knapsack"}
    labels = [button.label for button in app.get("download_button")]
    assert labels.count("Download the cut report (JSON)") == 3


def test_budget_survival_sweeps_the_sidebars_selecting_policy_beside_raw_and_record():
    app = on_page(started(policy="density", formats=["csv"]), "budget_survival")
    table = app.dataframe[-1].value
    assert set(table["policy"]) == {"raw", "record", "density"}
    density = table[table["policy"] == "density"]
    assert density["parse_ok"].all() or (density[~density["parse_ok"]]["records_kept"] == 0).all()
