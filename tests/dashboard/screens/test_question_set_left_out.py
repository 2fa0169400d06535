"""The Question set page on an uploaded file holding a question with no answer: the headline counts it, it is
listed with its reason, and the tables hold only the question that has an answer (as core's suite does); the
other question is given by its text alone and read on the graph."""

from __future__ import annotations

import json

from tests.dashboard.conftest import on_page, started, unescaped

QUESTIONS = b"".join(json.dumps(record).encode() + b"\n" for record in (
    {"id": "orin", "question": "What are the prerequisites for Jetson Orin?", "query": "t2_prerequisites",
     "parameters": {"concept": "1"}, "ground_truth": []},  # Jetson Orin has no prerequisites
    {"id": "tensorrt", "question": "What are the prerequisites for Tensorrt?"}))  # free text, read on the graph
HEADLINE = "1 of 2 questions; 1 has no answer on this graph, left out"


def test_an_uploaded_question_with_no_answer_is_counted_listed_and_left_out():
    app = on_page(started(sample="nvidia-jetson", budgets="256, 1024", qs_source="upload"), "question_set")
    app.file_uploader(key="qs_upload").set_value(("mine.jsonl", QUESTIONS, "application/json")).run()
    assert not app.exception, [item.value for item in app.exception]
    assert HEADLINE in unescaped(" ".join(item.value for item in app.markdown))
    assert any("left out" in item.value for item in app.warning)
    [left_out] = [item.value for item in app.dataframe if "reason" in item.value.columns]
    assert left_out["question_id"].tolist() == ["orin"]
    assert left_out["reason"].iloc[0].startswith("t2_prerequisites(concept=1) has no answer on this graph")
    measured = [item.value for item in app.dataframe if "question_id" in item.value.columns
                and "reason" not in item.value.columns]
    assert measured and all(set(frame["question_id"]) <= {"tensorrt"} for frame in measured)
