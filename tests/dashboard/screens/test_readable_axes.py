"""Readable axes: the Overview labels every heatmap row and shows every format's row; log axes tick 1-2-5."""

from __future__ import annotations

import json

from core.formats import FORMATS
from tests.dashboard.conftest import on_page, started, with_every_tokenizer


def chart(app, key: str) -> dict:
    found = [element for element in app.get("plotly_chart") if key in element.proto.id]
    return json.loads(found[0].proto.spec)


def test_the_ranking_heatmap_labels_every_format():
    app = with_every_tokenizer(on_page(started(), "overview"))
    figure = chart(app, "tokenizer_ranks")
    assert figure["layout"]["yaxis"]["tickvals"] == FORMATS.names()


def test_the_budget_axes_tick_1_2_5_with_separators_and_the_inspected_budget_is_marked():
    app = on_page(started(budgets="280,580,1200,2500,5100", budget="900"), "budget_survival")
    figure = chart(app, "survival_chart")
    axis = figure["layout"]["xaxis"]
    assert axis["type"] == "log" and axis["ticktext"] == ["500", "1,000", "2,000", "5,000"]
    assert any(shape["x0"] == 900 and shape["line"]["dash"] == "solid" for shape in figure["layout"]["shapes"])
    assert all("_" not in (annotation.get("text") or "") for annotation in figure["layout"]["annotations"])
