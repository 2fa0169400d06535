"""The Overview's cost stability columns: each format's max/min tokens under relabelling and reordering, from core."""

from __future__ import annotations

from core.analysis.cost_stability import cost_stability, stability_rows
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample
from tests.dashboard.conftest import started


def test_the_overview_shows_how_far_names_and_order_move_each_formats_cost():
    app = started()
    table = app.dataframe[0].value
    graph = load_sample(default_sample().name)
    rows = stability_rows(cost_stability(graph, "o200k_base"))
    assert list(table.index) == FORMATS.names() == rows["format"]
    assert table["relabel max/min"].tolist() == rows["relabel max/min"]
    assert table["order max/min"].tolist() == rows["order max/min"]
    assert table.loc["untyped_pairs", "relabel max/min"] > 1.5  # numbers are far cheaper than service names
