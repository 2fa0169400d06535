"""The Overview above the large-graph threshold (set small through the server's environment variable, so a sample
counts as large): the graph's own figures at once, every format measured only when asked, the same table then."""

from __future__ import annotations

import pandas as pd
import pytest

from core.analysis.session_defaults import budget_text, complete_tokens, graph_defaults, sweep_budgets
from core.analysis.sweep import rendering_summary
from core.analysis.tokenizer_comparison import tokens_per_format
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.io.samples import get_sample, load_sample
from core.reports.graph_size import graph_figures
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens
from dashboard import cache
from dashboard.large_graph import THRESHOLD_VARIABLE
from tests.dashboard.conftest import metric, started

SAMPLE = "nvidia-jetson"  # 49 nodes and 64 edges: 113 units
SHOWN = FORMATS.names()[:2]


@pytest.fixture
def small_threshold(monkeypatch):
    monkeypatch.setenv(THRESHOLD_VARIABLE, "100")


def table_with(app, column: str) -> pd.DataFrame:
    """The first table on the page with this column (AppTest does not expose a dataframe's key)."""
    return next(item.value for item in app.dataframe if column in item.value.columns)


def button(app, label: str):
    return next(item for item in app.button if item.label == label)


def test_a_large_graph_opens_on_its_own_figures_and_measures_nothing_until_asked(small_threshold):
    app = started(sample=SAMPLE)
    assert not app.exception
    info = app.info[0].value
    assert "113 nodes and edges" in info and "above the 100" in info
    figures = graph_figures(load_sample(SAMPLE))
    assert metric(app, "Nodes") == [f"{figures.nodes:,}"] and metric(app, "Edges") == [f"{figures.edges:,}"]
    assert metric(app, "Node types") == [f"{len(figures.node_types):,}"]
    assert app.dataframe[0].value.values.tolist() == [list(pair) for pair in figures.node_types]
    assert [list(item.value.columns) for item in app.dataframe] == [["node type", "nodes"], ["relation", "edges"]]
    assert {item.label for item in app.button} >= {"Measure every format", "Count with every tokenizer"}


def test_asked_it_shows_the_table_core_measures_on_the_whole_graph(small_threshold):
    app = started(sample=SAMPLE)
    button(app, "Measure every format").click().run()
    assert not app.exception
    shown = table_with(app, "round trip")
    graph = load_sample(SAMPLE)
    expected = rendering_summary(graph, [graph_defaults(graph, get_sample(SAMPLE)).query]).set_index("format")
    assert shown["tokens"].to_dict() == expected["tokens"].to_dict()
    assert (shown["round trip"].str.contains("exact") & ~shown["round trip"].str.contains("not exact")).to_dict() \
        == expected["round_trip"].to_dict()
    assert list(shown.index) == FORMATS.names()
    assert "Count with every tokenizer" in {item.label for item in app.button}  # the other waits for its own ask
    button(app, "Count with every tokenizer").click().run()
    table = table_with(app, "deepseek")
    pd.testing.assert_frame_equal(table, tokens_per_format(graph), check_names=False)


def test_below_the_threshold_the_overview_measures_at_once():
    app = started(sample=SAMPLE)
    assert "round trip" in app.dataframe[0].value.columns
    assert not any("nodes and edges" in item.value for item in app.info)


def test_a_large_graph_takes_its_sweep_budgets_from_the_shown_formats(small_threshold):
    graph = load_sample(SAMPLE)
    app = started(sample=SAMPLE)
    shown_only = budget_text(sweep_budgets(complete_tokens(graph, "o200k_base", SHOWN)))
    assert shown_only != budget_text(sweep_budgets(complete_tokens(graph, "o200k_base")))  # so the test can fail
    assert app.sidebar.text_input(key="budgets").value == shown_only


@pytest.mark.parametrize("sidebar_start", ["still rendering", "already done"])
def test_opening_a_large_graph_says_which_formats_it_renders_and_then_reuses_them(small_threshold, monkeypatch,
                                                                                  sidebar_start):
    """The sidebar starts all but the last format in threads of their own; whether they are done when the status box
    draws (a small graph's are) or not, the box names every format this open renders."""
    cache.workbench().clear()  # a fresh server: nothing rendered yet
    if sidebar_start == "already done":
        original = cache.start_counting

        def start_and_finish(graph, tokenizer, shown):
            original(graph, tokenizer, shown)
            for spec in list(cache._default_specs(graph, tokenizer, shown).values())[:-1]:  # those it started
                cache.workbench().account(spec)

        monkeypatch.setattr(cache, "start_counting", start_and_finish)
    app = started(sample=SAMPLE)
    labels = [item.label for item in app.status]
    assert len(labels) == 1 and labels[0].startswith(f"Rendered and counted {SHOWN[0]}, {SHOWN[1]} in ")
    lines = [item.value for item in app.status[0].markdown]
    graph = load_sample(SAMPLE)
    assert lines[0].startswith(f"The graph: {len(graph.nodes):,} nodes of ")  # its own figures first
    records = len(FORMATS.get(SHOWN[0]).render(graph, graph_units(graph)).records)
    assert any(line.startswith(f"{SHOWN[0]}: {records:,} records, ") for line in lines), lines
    tokens = prefix_tokens(FORMATS.get(SHOWN[0]).render(graph, graph_units(graph)), TOKENIZERS.get("o200k_base"))
    assert f"{tokens.total:,} tokens" in " ".join(lines)
    app.run()
    assert len(app.status) == 0  # a rerun finds them rendered


def test_the_overview_draws_before_the_budgets_are_counted_and_contexts_after(small_threshold, monkeypatch):
    """Counting that never ends (here: raises) leaves the Overview drawn, and Contexts, which needs it, not."""
    def counting(*arguments):
        raise RuntimeError("still counting")

    app = started(sample=SAMPLE)
    monkeypatch.setattr(cache, "complete_tokens", counting)
    app.run()
    assert metric(app, "Nodes") == [f"{len(load_sample(SAMPLE).nodes):,}"]
    assert [item.value for item in app.title] == ["Overview"]
    assert [item.message for item in app.exception] == ["still counting"]
    app.switch_page("screens/contexts.py").run()
    assert [item.message for item in app.exception] == ["still counting"]
    assert not app.title and not app.metric  # the page waits for the budgets it cuts at


def test_above_a_thousand_units_the_tokenizer_table_waits_to_be_asked_and_then_equals_cores():
    # A generated graph far below the large-graph threshold: the main table at once, every tokenizer only when
    # asked (on 6,011 units it took 30 s before the page was idle), as on every graph.
    app = started(source="generator", generator="services", services_services="300", services_noise_edges="700")
    assert not app.exception
    assert len(table_with(app, "round trip")) == len(FORMATS)  # the main table is drawn
    assert not [item for item in app.dataframe if "o200k_base" in item.value.columns]
    button(app, "Count with every tokenizer").click().run()
    assert not app.exception
    graph = service_graph(300, 700, 7)
    assert len(graph.nodes) + len(graph.edges) > 1_000
    shown = table_with(app, "o200k_base")
    assert shown.to_dict() == tokens_per_format(graph).to_dict()
