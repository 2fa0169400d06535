"""Token anatomy's prompt-cache section: measured only when asked, and its chart and table are core's figures."""

from __future__ import annotations

import json

from core.analysis.prefix_stability import prefix_stability
from core.analysis.session_defaults import graph_defaults
from core.io.samples import default_sample, load_sample
from core.retrieval import ORDERINGS
from core.specs import SweepSpec
from tests.dashboard.conftest import on_page, started


def cache_chart(app) -> dict:
    return next(json.loads(chart.proto.spec) for chart in app.get("plotly_chart")
                if "prompt cache" in json.loads(chart.proto.spec)["layout"]["title"]["text"])


def test_the_page_opens_without_measuring_and_the_button_draws_core_s_figures():
    app = on_page(started(), "token_anatomy")
    assert not any("mean cached share" in table.value.columns for table in app.dataframe)  # nothing counted unasked
    app.button(key="cache_measure").click().run()
    assert not app.exception
    table = next(item.value for item in app.dataframe if "mean cached share" in item.value.columns)
    formats = list(dict.fromkeys(table["format"]))
    sample = default_sample()
    graph = load_sample(sample.name)
    defaults = graph_defaults(graph, sample)
    result = prefix_stability(SweepSpec.from_names(graph, [defaults.query], seeds=defaults.seeds, format_names=formats,
                                                   layouts=["nodes_then_edges"]), 10, edit_seed=0)
    expected = result.summary()
    assert table["mean cached share"].tolist() == expected["mean cached share"].tolist()
    assert table["min cached share"].tolist() == expected["min cached share"].tolist()
    assert set(table["ordering"]) == set(ORDERINGS.names())
    chart = cache_chart(app)
    assert [trace["type"] for trace in chart["data"]] == ["box"] * len(ORDERINGS.names())
    assert chart["layout"]["yaxis"]["tickformat"] == ".0%"
    assert any("10 of 10 edits touched the rendered units" in caption.value for caption in app.caption)


def test_a_radius_leaves_far_edits_outside_the_context():
    app = on_page(started(), "token_anatomy")
    app.selectbox(key="cache_radius").select("within 1 hop of the seeds").run()
    app.button(key="cache_measure").click().run()
    assert not app.exception
    edits = next(item.value for item in app.dataframe if "touched the context" in item.value.columns)
    touching = int(edits["touched the context"].sum())
    assert touching < 10
    assert any(f"{touching} of 10 edits touched the rendered units" in caption.value for caption in app.caption)
