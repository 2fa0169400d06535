"""The Question set page in AppTest: every sample with a bundled set, tables equal to core's, upload, generation."""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from core.analysis.suite import run_suite, settings_for
from core.analysis.suite_aggregates import aggregate, breakdown, pareto_across_budgets
from core.io.samples import get_sample, samples
from core.questions import load_questions
from tests.dashboard.conftest import on_page, started

WITH_SETS = [sample.name for sample in samples() if sample.queries_file]
BUDGETS = "256, 1024, 4096"


def page(**query_params) -> AppTest:
    return on_page(started(**{"budgets": BUDGETS, **query_params}), "question_set")


def core_result(app: AppTest, questions):
    sample = get_sample(app.sidebar.selectbox(key="sample").value)
    settings = settings_for(list(app.multiselect(key="qs_formats").value), [app.selectbox(key="qs_ordering").value],
                            layouts=[app.sidebar.selectbox(key="layout").value],
                            policies=[app.sidebar.segmented_control(key="policy").value], budgets=(256, 1024, 4096))
    return run_suite(sample.load(), questions, settings, workers=1)


def shown(app: AppTest, *columns: str) -> list[pd.DataFrame]:
    """The page's tables holding these columns, top to bottom (AppTest names only keyed, selectable tables)."""
    return [item.value for item in app.dataframe if set(columns) <= set(item.value.columns)]


@pytest.mark.parametrize("sample", WITH_SETS)
def test_the_bundled_set_runs_and_its_tables_equal_cores(sample):
    app = page(sample=sample)
    questions = load_questions(get_sample(sample).queries_path, get_sample(sample).load())
    expected = core_result(app, questions)
    [table] = [frame for frame in shown(app, "accuracy_low") if "query_type" not in frame.columns]
    pd.testing.assert_frame_equal(table, aggregate(expected.rows), check_dtype=False)
    [verdicts] = shown(app, "dominated_by", "seeding")
    pd.testing.assert_frame_equal(verdicts, pareto_across_budgets(expected.rows), check_dtype=False)
    [by_type] = shown(app, "accuracy_low", "query_type")
    pd.testing.assert_frame_equal(by_type, breakdown(expected.rows, "query_type"), check_dtype=False)
    assert f"{len(questions)} questions" in " ".join(item.value for item in app.markdown)
    assert len(app.get("plotly_chart")) == 2  # text-seeded and annotation-seeded side by side


def test_the_ckg_set_reports_its_tie_and_the_questions_naming_no_node():
    app = page(sample="nvidia-jetson", qs_facet="hop depth")
    assert "163 match, 1 tie" in " ".join(item.value for item in app.markdown)
    [ties] = shown(app, "ground_truth_detail")
    assert ties["question_id"].tolist() == ["nvidia-jetson_T3_1_20"]
    text_unseeded, annotation_unseeded = [frame for frame in shown(app, "query_type") if len(frame.columns) == 3]
    assert len(text_unseeded) == len(annotation_unseeded) == 7  # the T4 questions name no node
    [by_hop] = shown(app, "accuracy_low", "hop_depth")
    assert set(by_hop["hop_depth"]) == {0, 1, 2, 3, 4, 5}


def test_the_failing_table_lists_the_questions_core_says_fail_and_opens_contexts():
    app = page(sample="nvidia-jetson", qs_budget="1024")
    failing = app.dataframe(key="qs_failing").value
    sample = get_sample("nvidia-jetson")
    rows = core_result(app, load_questions(sample.queries_path, sample.load())).rows
    chosen = rows[(rows["seeding"] == "text") & (rows["format"] == app.selectbox(key="qs_failing_format").value)
                  & (rows["budget"] == 1024) & (rows["traversal_accuracy"] < 1)]
    assert failing["question_id"].tolist() == chosen["question_id"].tolist() and len(failing)


def test_a_generated_set_and_a_bad_spec():
    app = page(sample="nvidia-jetson", qs_source="generate", qs_spec="t5_relation:count=5,seed=2")
    assert "5 questions" in " ".join(item.value for item in app.markdown)
    app = page(sample="nvidia-jetson", qs_source="generate", qs_spec="teleport:count=5")
    assert "These questions cannot be used" in app.error[0].value and "teleport" in app.error[0].value


def test_a_sample_without_a_set_says_so():
    app = page(sample="online-boutique", qs_source="bundled")
    assert "no bundled question set" in app.info[0].value


def test_a_clicked_failing_question_opens_contexts_on_its_seeds_and_query():
    from dashboard.screens.question_set import OPEN_REQUEST, contexts_choices

    app = page(sample="nvidia-jetson", qs_budget="256")
    failing = app.dataframe(key="qs_failing").value
    row = failing[failing["query_type"] == "T3_path"].iloc[0]
    sample = get_sample("nvidia-jetson")
    question = load_questions(sample.queries_path).by_id(row["question_id"])
    for key, value in contexts_choices(question, row["text_seeds"].split(", "), "csv", "hop_tiers", 256,
                                       10_000).items():  # what the row click's callback leaves
        app.session_state[key] = value
    app.session_state[OPEN_REQUEST] = True
    app.run()
    assert not app.exception, [item.value for item in app.exception]
    assert any(item.value == "Contexts" for item in app.title)
    assert app.sidebar.multiselect(key="seeds").value == list(question.annotation_seeds)
    assert app.sidebar.selectbox(key="query").value == "t3_prerequisite_path"
    assert app.sidebar.selectbox(key="q_concept").value == question.query.all_arguments["concept"]
    assert app.main.multiselect(key="formats").value == ["csv"] and app.main.number_input(key="budget").value == 256


def test_the_oracle_answers_the_set_and_its_exact_match_equals_the_traversal_accuracy(tmp_path):
    app = page(sample="reference-services")
    app.selectbox(key="qs_reader").set_value("oracle")
    app.text_input(key="qs_answers_store").set_value(str(tmp_path / "runs.sqlite")).run()
    app.button(key="qs_answers_run").click().run()
    assert not app.exception, [item.value for item in app.exception]
    [table] = shown(app, "exact_match_low", "traversal_accuracy")
    assert len(table) > 1  # several query types
    assert table["exact_match"].tolist() == pytest.approx(table["traversal_accuracy"].tolist())
    [enough] = shown(app, "sufficiency", "abstained")
    complete = enough[enough["sufficiency"] == "evidence complete"]
    assert complete["wrong"].sum() == complete["abstained"].sum() == 0  # with the whole evidence the oracle is right
