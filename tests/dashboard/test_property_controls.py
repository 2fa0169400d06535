"""The sidebar's property filter: core's exact tokens saved per shown format, and the pages get the filtered graph."""

from __future__ import annotations

from core.analysis.property_savings import property_savings
from core.graph.property_filter import PropertyFilter, filter_properties
from core.io.samples import get_sample
from tests.dashboard.conftest import on_page, started


def test_dropping_labels_shows_the_tokens_saved_and_filters_the_graph():
    app = on_page(started(sample="nvidia-jetson", formats=["csv", "jsonl"], drop_properties="node:label"), "contexts")
    graph = get_sample("nvidia-jetson").load()
    filtered = filter_properties(graph, PropertyFilter(exclude=("node:label",)))
    table = next(frame.value for frame in app.sidebar.dataframe)
    expected = property_savings(graph, filtered, ["csv", "jsonl"], "o200k_base")
    assert list(table["format"]) == ["csv", "jsonl"]
    assert list(table["saved"]) == [saving.saved for saving in expected] and all(table["saved"] > 0)
    assert any("properties filtered" in item.value for item in app.caption)


def test_an_empty_filter_changes_nothing():
    app = on_page(started(sample="nvidia-jetson"), "contexts")
    assert not app.sidebar.dataframe
