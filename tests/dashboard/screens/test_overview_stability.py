"""The Overview's cost stability: each format's max/min tokens under relabelling and reordering, from core, counted
only when its expander is opened (the main table shows first: on 2,000 services this took 25 s)."""

from __future__ import annotations

from core.analysis.cost_stability import cost_stability, stability_rows
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample
from dashboard.screens.overview import STABILITY_KEY
from tests.dashboard.conftest import started


def test_the_main_table_shows_without_cost_stability_which_waits_for_its_expander():
    app = started()
    assert "relabel max/min" not in app.dataframe[0].value.columns and "round trip" in app.dataframe[0].value.columns
    assert not any("relabel max/min" in item.value.columns for item in app.dataframe)
    assert any(item.label.startswith("Cost stability") for item in app.expander)


def test_opened_it_shows_how_far_names_and_order_move_each_formats_cost():
    app = started()
    app.session_state[STABILITY_KEY] = True
    app.run()
    assert not app.exception
    table = next(item.value for item in app.dataframe if "relabel max/min" in item.value.columns)
    graph = load_sample(default_sample().name)
    rows = stability_rows(cost_stability(graph, "o200k_base"))
    assert list(table.index) == FORMATS.names() == rows["format"]
    assert table["relabel max/min"].tolist() == rows["relabel max/min"]
    assert table["order max/min"].tolist() == rows["order max/min"]
    assert table.loc["untyped_pairs", "relabel max/min"] > 1.5  # numbers are far cheaper than service names
