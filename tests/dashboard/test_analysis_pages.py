"""The analysis pages in AppTest: every page on every sample, tables equal to core's for the same inputs."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.analysis import format_anatomies
from core.registry import FORMATS
from core.samples import default_sample, load_sample, sample_names
from core.seeds import Seeds
from core.token_anatomy import CATEGORIES, anatomy_table

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py")
PAGES = ("token_anatomy",)
SAMPLE = default_sample()


def started(**query_params) -> AppTest:
    app = AppTest.from_file(APP, default_timeout=300)
    for key, value in query_params.items():
        app.query_params[key] = value
    return app.run()


def on_page(app: AppTest, page: str) -> AppTest:
    app.switch_page(f"screens/{page}.py").run()
    assert not app.exception, [item.value for item in app.exception]
    return app


def core_anatomy(budget=None, policy="record", marker=False, tokenizer="o200k_base", ordering=None, layout=None,
                 sample=SAMPLE.name) -> pd.DataFrame:
    graph = load_sample(sample)
    chosen = SAMPLE if sample == SAMPLE.name else None
    anatomies = format_anatomies(graph, SAMPLE.default_query(), Seeds(tuple(chosen.seeds) if chosen else ()),
                                 formats=FORMATS.names(), ordering=ordering, layout=layout, tokenizer=tokenizer,
                                 budget=budget, policy=policy, marker=marker)
    return pd.DataFrame(anatomy_table(anatomies)).set_index("format")


@pytest.mark.parametrize("sample", sample_names())
def test_every_analysis_page_runs_on_every_sample(sample):
    app = started(sample=sample)
    for page in PAGES:
        on_page(app, page)


def test_the_anatomy_table_equals_core_and_sums_to_the_total():
    app = on_page(started(), "token_anatomy")
    shown = app.dataframe[0].value
    ordering, layout = app.sidebar.selectbox(key="ordering").value, app.sidebar.selectbox(key="layout").value
    pd.testing.assert_frame_equal(shown, core_anatomy(ordering=ordering, layout=layout), check_dtype=False)
    assert (shown[list(CATEGORIES)].sum(axis=1) == shown["total"]).all()


def test_the_anatomy_of_cuts_with_a_marker_equals_core_for_both_tokenizers():
    app = started(budget="300", policy="record", anatomy_scope="cut at the budget", marker="true",
                  compare_tokenizers="true")
    app = on_page(app, "token_anatomy")
    ordering, layout = app.sidebar.selectbox(key="ordering").value, app.sidebar.selectbox(key="layout").value
    for index, tokenizer in enumerate(("o200k_base", "cl100k_base")):  # side by side, left to right
        shown = app.dataframe[index].value
        expected = core_anatomy(300, "record", True, tokenizer, ordering, layout)
        pd.testing.assert_frame_equal(shown, expected, check_dtype=False)
        assert shown["truncation marker"].sum() > 0
    assert any("approximated" in item.value for item in app.caption)
