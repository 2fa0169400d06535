"""The analysis pages in AppTest: every page on every sample, tables equal to core's for the same inputs."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.analysis.budget_sweep import budget_sweep, effective_layout
from core.analysis.format_anatomies import format_anatomies
from core.analysis.format_markers import format_markers
from core.analysis.pareto_tables import answer_points, best_lossless, dominated_formats, efficiency_table
from core.analysis.session_defaults import complete_tokens, sweep_budgets
from core.analysis.token_anatomy import CATEGORIES, anatomy_table
from core.budget import DEFAULT_POLICIES
from core.budget.policies import cut
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample, sample_names
from core.pipeline import accounted_rendering
from core.reports.column_words import words
from core.reports.exports import SEED_FIELDS, context_name
from core.retrieval import ORDERINGS
from core.retrieval.ordering import inputs_for
from core.retrieval.seeds import Seeds
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from tests.dashboard.conftest import on_page, started, with_every_tokenizer

PAGES = ("token_anatomy", "budget_survival", "orderings", "pareto", "exports")
SAMPLE = default_sample()


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
                  anatomy_tokenizers="true")
    app = on_page(app, "token_anatomy")
    ordering, layout = app.sidebar.selectbox(key="ordering").value, app.sidebar.selectbox(key="layout").value
    for index, tokenizer in enumerate(("o200k_base", "cl100k_base")):  # side by side, left to right
        shown = app.dataframe[index].value
        expected = core_anatomy(300, "record", True, tokenizer, ordering, layout)
        pd.testing.assert_frame_equal(shown, expected, check_dtype=False)
        assert shown["truncation marker"].sum() > 0
    assert any("approximated" in item.value for item in app.caption)


def sidebar_choices(app: AppTest) -> dict:
    return {"formats": list(app.sidebar.multiselect(key="formats").value),
            "ordering": app.sidebar.selectbox(key="ordering").value,
            "layout": app.sidebar.selectbox(key="layout").value}


def test_the_survival_tables_equal_core_for_the_sidebar_settings():
    app = on_page(started(budgets="300, 2000,9000", formats=["typed_edges", "pretty_json"], ordering="bfs_from_seeds"),
                  "budget_survival")
    chosen = sidebar_choices(app)
    assert chosen["formats"] == ["typed_edges", "pretty_json"] and chosen["ordering"] == "bfs_from_seeds"
    expected = budget_sweep(load_sample(SAMPLE.name), SAMPLE.default_query(), Seeds(tuple(SAMPLE.seeds)),
                            formats=chosen["formats"], orderings=[chosen["ordering"]], layout=chosen["layout"],
                            budgets=(300, 2000, 9000))
    shown = app.dataframe[1].value
    pd.testing.assert_frame_equal(shown.reset_index(drop=True),
                                  expected[shown.columns].reset_index(drop=True), check_dtype=False)
    markers = format_markers(load_sample(SAMPLE.name), SAMPLE.default_query(), Seeds(tuple(SAMPLE.seeds)),
                             formats=chosen["formats"], ordering=chosen["ordering"], layout=chosen["layout"])
    assert app.dataframe[0].value["full_tokens"].tolist() == markers["full_tokens"].tolist()
    assert app.dataframe[0].value["coverage_tokens"].tolist() == markers["coverage_tokens"].tolist()


def test_a_bad_budget_list_is_explained_and_the_default_used():
    app = on_page(started(budgets="12, lots"), "budget_survival")
    assert any("lots" in item.value for item in app.sidebar.error)
    default = sweep_budgets(complete_tokens(load_sample(SAMPLE.name), "o200k_base"))
    assert sorted(set(app.dataframe[1].value["budget"])) == list(default)


def test_the_orderings_table_equals_core_for_every_ordering():
    app = on_page(started(budgets="256,1024", orderings_format="csv", policy="record"), "orderings")
    chosen = sidebar_choices(app)
    expected = budget_sweep(load_sample(SAMPLE.name), SAMPLE.default_query(), Seeds(tuple(SAMPLE.seeds)),
                            formats=["csv"], orderings=ORDERINGS.names(), layout=chosen["layout"],
                            policies=["record"], budgets=(256, 1024))
    shown = app.dataframe[0].value  # the budgets as a column (a styled index would be drawn "1024")
    assert list(shown.columns) == ["budget", *ORDERINGS.names()] and shown["budget"].tolist() == [256, 1024]
    for ordering in ORDERINGS.names():
        assert shown[ordering].tolist() == expected[expected["ordering"] == ordering]["evidence_survival"].tolist()
    gap = app.dataframe[1].value  # the retriever gap: the oracle's survival minus each realistic ordering's
    oracle = expected[expected["ordering"] == "evidence_first"]["evidence_survival"].to_numpy()
    below = words("evidence_gap")  # the columns in words: "evidence survival below the oracle: centrality"
    for ordering in ("personalized_pagerank", "centrality", "question_bm25"):
        ours = expected[expected["ordering"] == ordering]["evidence_survival"].to_numpy()
        assert gap[f"{below}: {ordering}"].tolist() == (oracle - ours).tolist()
    assert f"{below}: question_bm25+ends" in gap.columns and f"{below}: evidence_first" not in gap


def core_pareto_sweep(chosen: dict, policy: str, budgets):
    return budget_sweep(load_sample(SAMPLE.name), SAMPLE.default_query(), Seeds(tuple(SAMPLE.seeds)),
                        formats=FORMATS.names(), orderings=[chosen["ordering"]], layout=chosen["layout"],
                        policies=[policy], budgets=budgets)


@pytest.mark.parametrize("accuracy", ["traversal accuracy", "evidence survival"])
def test_the_pareto_tables_equal_core(accuracy):
    app = on_page(started(budgets="512,2048,8192", pareto_accuracy=accuracy, policy="record", ordering="hop_tiers"),
                  "pareto")
    frame = core_pareto_sweep(sidebar_choices(app), "record", (512, 2048, 8192))
    points, dominated, efficiency = (item.value for item in app.dataframe)
    expected = answer_points(frame, accuracy)[points.columns]
    pd.testing.assert_frame_equal(points, expected.reset_index(drop=True), check_dtype=False)
    expected_dominated = dominated_formats(frame, accuracy)[dominated.columns].sort_values(["mean_tokens", "format"])
    pd.testing.assert_frame_equal(dominated, expected_dominated.reset_index(drop=True), check_dtype=False)
    pd.testing.assert_frame_equal(efficiency, efficiency_table(frame, accuracy), check_dtype=False)
    best = best_lossless(efficiency_table(frame, accuracy))
    assert any(best in item.value and "Most efficient lossless" in item.value for item in app.markdown)
    assert points["pareto_optimal"].any() and not dominated["dominated_by"].eq("").any()
    assert (points["accuracy"] > 0).all()  # over what answers: a format answering nothing is never a point


def test_a_clicked_point_opens_its_cut_on_the_contexts_page():
    app = on_page(started(budgets="512,2048"), "pareto")
    app.session_state["formats"] = ["csv"]
    app.session_state["budget"] = 512
    app.session_state["pareto_open_contexts"] = True  # what the chart's click callback leaves
    app.run()
    assert not app.exception
    assert any(item.value == "Contexts" for item in app.title)
    assert app.main.multiselect(key="formats").value == ["csv"] and app.main.slider(key="budget_slider").value == 512


def test_exports_parse_back_and_equal_core():
    from dashboard.screens import exports  # the page's own builders, called with the selection it ran with

    app = on_page(started(budgets="400,3000", formats=["typed_edges", "pretty_json"], budget="700",
                          ordering="hop_tiers"), "exports")
    assert [item.proto.label for item in app.get("download_button")] == [
        "Results as CSV", "Results as JSON records", "Contexts as a zip", "Budget survival chart (HTML)",
        "Orderings chart (HTML)", "Pareto chart (HTML)", "Token anatomy chart (HTML)", "One-page report (HTML)"]
    selection = app.session_state["selection"]
    chosen = sidebar_choices(app)
    frame = exports.sweep_results(selection, (400, 3000))
    expected = budget_sweep(load_sample(SAMPLE.name), SAMPLE.default_query(), Seeds(tuple(SAMPLE.seeds)),
                            formats=chosen["formats"], orderings=[chosen["ordering"]], layout=chosen["layout"],
                            budgets=(400, 3000))
    csv = pd.read_csv(io.StringIO(exports.results_csv(frame)))
    assert csv["budgeted_tokens"].tolist() == expected["budgeted_tokens"].tolist()
    assert csv["evidence_survival"].tolist() == expected["evidence_survival"].tolist()
    records = json.loads(exports.results_json(frame))
    assert len(records) == len(expected) and all(set(SEED_FIELDS) <= set(record) for record in records)
    assert [record["budget_tokens"] for record in records] == expected["budget"].tolist()
    assert {record["model"] for record in records} == {None} and len({record["run_id"] for record in records}) == 1
    archive = zipfile.ZipFile(io.BytesIO(exports.contexts_zip(exports.current_cuts(selection))))
    graph = load_sample(SAMPLE.name)
    for name in chosen["formats"]:
        format_ = FORMATS.get(name)
        arranged = effective_layout(name, chosen["layout"])
        hop_tiers = ORDERINGS.get("hop_tiers")
        accounting = accounted_rendering(RenderingSpec(graph, format_, hop_tiers, arranged,
                                                       inputs_for(hop_tiers, SAMPLE.seeds),
                                                       TOKENIZERS.get("o200k_base")))
        for policy in DEFAULT_POLICIES:
            result = cut(accounting, format_, policy, 700)
            assert archive.read(context_name(result)).decode("utf-8") == result.text
    assert len(archive.namelist()) == 2 * len(DEFAULT_POLICIES)
    page = exports.report(selection, (400, 3000), "http://localhost:8501/exports?budget=700")
    assert "http://localhost:8501/exports?budget=700" in page and graph.sha256 in page
    assert page.count("<table") == 3 and page.count("plotly-graph-div") == 4
    # Streamlit's template paints traces #000001, #000002...: plotly.js alone draws those black.
    assert not re.search(r'"color":"#0000[0-9]{2}"', page) and '"color":"#636EFA"' in page


def test_the_report_of_the_adversarial_sample_keeps_its_labels_as_text():
    from dashboard.screens import exports

    app = on_page(started(sample="adversarial"), "exports")
    if app.warning:  # nothing to sweep (no seeds for a seed ordering): the page says so and offers nothing
        assert not app.get("download_button")
        return
    page = exports.report(app.session_state["selection"], (256, 4096), "http://localhost:8501/?a=<b>")
    assert "<img src=x" not in page and "?a=&lt;b&gt;" in page


def test_the_overview_shows_every_tokenizer_side_by_side_with_the_note():
    from core.analysis.tokenizer_comparison import tokens_per_format

    app = with_every_tokenizer(on_page(started(), "overview"))
    shown = app.dataframe[1].value
    pd.testing.assert_frame_equal(shown, tokens_per_format(load_sample(SAMPLE.name)), check_dtype=False)
    assert any("stand-in counts (approximate" in item.value for item in app.caption)


def test_the_orderings_page_says_what_its_own_figures_say():
    from dashboard.state.teaching import orderings_sentence

    app = on_page(started(budgets="256,1024", orderings_format="csv", policy="record"), "orderings")
    choices = sidebar_choices(app)
    frame = budget_sweep(load_sample(SAMPLE.name), SAMPLE.default_query(), Seeds(tuple(SAMPLE.seeds)),
                         formats=["csv"], orderings=ORDERINGS.names() + ORDERINGS.ends_names(),
                         layout=choices["layout"], policies=["record"], budgets=(256, 1024))
    sentence = orderings_sentence(frame)
    assert any(sentence in item.value for item in app.markdown), sentence
