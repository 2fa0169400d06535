"""The app offers every registered tokenizer and model family; Overview compares them all side by side."""

from __future__ import annotations

import pytest

from core.analysis.tokenizer_comparison import format_ranks, tokens_per_format, winner_sentence
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample
from core.tokens import MODELS, TOKENIZERS
from tests.dashboard.conftest import forget_measured_on_request, started, with_every_tokenizer


def test_the_sidebar_offers_every_tokenizer_and_model_and_overview_compares_them_all_when_asked():
    forget_measured_on_request()
    app = started()
    assert not app.exception, [item.value for item in app.exception]
    assert app.sidebar.selectbox(key="tokenizer").options == TOKENIZERS.names()
    assert app.sidebar.selectbox(key="model").options == [MODELS.get(name).title for name in MODELS]
    assert not [item for item in app.dataframe if "cl100k_base" in item.value.columns]  # nothing counted unasked
    with_every_tokenizer(app)
    expected = tokens_per_format(load_sample(default_sample().name))
    table = app.dataframe[1].value  # after the format table: every tokenizer, then the ranks
    assert list(table.columns) == TOKENIZERS.names()
    assert table.to_dict() == expected.to_dict()
    ranks = app.dataframe[2].value
    assert ranks.to_dict() == format_ranks(expected).to_dict()
    sentence = winner_sentence(expected)
    assert any(item.value.replace("\\", "") == sentence for item in app.markdown)


def test_the_overview_loads_no_other_tokenizer_until_asked(monkeypatch):
    from core.analysis import tokenizer_comparison

    asked = []
    counted = tokenizer_comparison.tokens_per_format
    monkeypatch.setattr(tokenizer_comparison, "tokens_per_format",
                        lambda graph, tokenizers=None, formats=None: asked.append(formats) or counted(
                            graph, tokenizers, formats))
    forget_measured_on_request()
    app = started()
    assert asked == []  # the first open counts with the sidebar's tokenizer alone
    with_every_tokenizer(app)
    assert len(asked) == len(FORMATS) and all(len(formats) == 1 for formats in asked)  # a format at a time


def test_picking_a_model_sets_its_tokenizer_and_a_stand_in_is_marked_approximate():
    app = started()
    app.sidebar.selectbox(key="model").set_value("llama-3").run()
    assert app.sidebar.selectbox(key="tokenizer").value == "llama3" and not app.sidebar.warning
    app.sidebar.selectbox(key="model").set_value("claude").run()
    assert app.sidebar.selectbox(key="tokenizer").value == "o200k_base"
    assert "Approximate counts" in app.sidebar.warning[0].value and "Claude" in app.sidebar.warning[0].value
    assert any("≈" in item.value for item in app.markdown)  # the cheapest-format sentence on Overview
    app.sidebar.selectbox(key="model").set_value("qwen").run()
    app.sidebar.selectbox(key="tokenizer").set_value("tekken").run()  # another model's tokenizer: not exact
    assert "reads with qwen" in app.sidebar.warning[0].value


@pytest.mark.parametrize("name", TOKENIZERS.names())
def test_token_anatomy_and_contexts_work_with_every_tokenizer(name):
    app = started(tokenizer=name)
    assert app.sidebar.selectbox(key="tokenizer").value == name
    for page in ("token_anatomy", "contexts"):
        app.switch_page(f"screens/{page}.py").run()
        assert not app.exception, (page, [item.value for item in app.exception])
    panels = [element.proto.body for element in app.get("html") if element.proto.body.startswith('<div class="gcl-context">')]
    assert panels and panels[0].count('<span class="t') > 10  # each token coloured


def test_a_stand_in_count_is_marked_approximate_on_contexts_and_in_the_charts():
    import pandas as pd

    from dashboard.views.charts import pareto_figure


    app = started()
    app.sidebar.selectbox(key="model").set_value("claude").run()
    app.switch_page("screens/contexts.py").run()
    assert not app.exception, [item.value for item in app.exception]
    used = [metric.value for metric in app.metric if metric.label == "Tokens used / budget"]
    assert used and all(value.startswith("≈") for value in used)
    exact = started()
    exact.switch_page("screens/contexts.py").run()
    assert not any(metric.value.startswith("≈") for metric in exact.metric if metric.label == "Tokens used / budget")
    points = pd.DataFrame({"format": ["csv"], "lossless": [True], "tokens": [10], "accuracy": [1.0],
                           "reach_budget": [512], "pareto_optimal": [True], "dominated_by": [""]})
    assert "approximate" in pareto_figure(points, "traversal accuracy", approximate=True).layout.xaxis.title.text
    assert "approximate" not in pareto_figure(points, "traversal accuracy").layout.xaxis.title.text


@pytest.mark.parametrize("page", ["contexts", "budget_survival", "orderings", "pareto", "advisor", "question_set"])
def test_every_page_that_counts_names_its_tokenizer_and_marks_a_stand_in_approximate(page):
    app = started()
    app.sidebar.selectbox(key="model").set_value("claude").run()
    app.switch_page(f"screens/{page}.py").run()
    assert not app.exception, [item.value for item in app.exception]
    assert any("o200k_base (≈ approximate counts: Anthropic publishes no tokenizer" in item.value for item in app.caption)
