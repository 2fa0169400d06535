"""The Overview's count caps and estimator error: closed until opened (the main table shows first), then core's
figures, checked here against direct encodes and a hand computation."""

from __future__ import annotations

import math

from core.formats import FORMATS
from core.graph.hops import hop_units
from core.graph.units import graph_units
from core.io.samples import default_sample, load_sample
from core.number_style import signed_share
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, order_units
from core.tokens import TOKENIZERS
from dashboard.screens.overview import CAPS_KEY, ESTIMATORS_KEY
from tests.dashboard.conftest import started

ENCODING = TOKENIZERS.get("o200k_base").encoding


def table_with(app, column: str):
    return next((item.value for item in app.dataframe if column in item.value.columns), None)


def test_both_wait_closed_below_the_main_table():
    app = started()
    labels = [item.label for item in app.expander]
    assert any(label.startswith("Count caps") for label in labels)
    assert any(label.startswith("Estimator error") for label in labels)
    assert table_with(app, "30 edges: tokens") is None and table_with(app, "chars/4 error") is None


def test_opened_the_caps_table_holds_the_first_n_edges_exact_tokens_in_seed_order():
    app = started()
    app.session_state[CAPS_KEY] = True
    app.run()
    assert not app.exception
    table = table_with(app, "30 edges: tokens")
    sample = default_sample()
    graph = load_sample(sample.name)
    seeds = tuple(sample.seeds)
    ordered = order_units(graph, hop_units(graph, seeds), ORDERINGS.get("hop_tiers"), "nodes_then_edges",
                          OrderingInputs(seeds))
    edges = [unit for unit in ordered if not unit.is_node]
    assert list(table.index) == FORMATS.names()
    for name in ("csv", "semantic_text"):
        expected = len(ENCODING.encode_ordinary(FORMATS.get(name).render(graph, edges[:30]).text))
        assert table.loc[name, "30 edges: tokens"] == expected
        assert table.loc[name, "30: min tokens"] <= expected <= table.loc[name, "30: max tokens"]
    assert table.loc["csv", "100 edges: held"] == len(graph.edges) == 88  # fewer edges than the cap


def test_opened_the_estimator_table_signs_each_error_as_worked_by_hand():
    app = started()
    app.session_state[ESTIMATORS_KEY] = True
    app.run()
    assert not app.exception
    table = table_with(app, "chars/4 error")
    graph = load_sample(default_sample().name)
    text = FORMATS.get("csv").render(graph, graph_units(graph)).text
    exact = len(ENCODING.encode_ordinary(text))
    assert table.loc["csv", "exact tokens"] == exact
    assert table.loc["csv", "chars/4 error"] == signed_share((math.ceil(len(text) / 4) - exact) / exact)
    assert table.loc["compact_json", "words×1.3 error"].startswith("−")  # one long word: a far under-count


def test_both_opened_write_every_figure_in_the_number_style():
    from core.number_style import unformatted_numbers
    from tests.dashboard.test_number_style_on_every_page import page_text, prose

    app = started()
    app.session_state[CAPS_KEY] = app.session_state[ESTIMATORS_KEY] = True
    app.session_state["count_cap_kind"] = "records"
    app.run()
    assert table_with(app, "30 records: units") is not None  # semantic_text's 30 pages hold more than 30 units
    assert {text: found for text in page_text(app) if (found := unformatted_numbers(prose(text)))} == {}
