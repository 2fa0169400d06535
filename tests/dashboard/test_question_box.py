"""The sidebar's question box reads a question as every command does, and a query with no answer is measured nowhere."""

from __future__ import annotations

import json
from pathlib import Path

from core.questions.ckg import ckg_query
from tests.dashboard.conftest import on_page, started, unescaped

QUESTIONS = Path(__file__).parents[2] / "sample_graphs" / "nvidia-jetson" / "queries_nvidia-jetson.jsonl"


def _two_of_each_type() -> list[dict]:
    records = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen: dict[str, list[dict]] = {}
    for record in records:
        chosen.setdefault(record["type"], [])
        if len(chosen[record["type"]]) < 2:
            chosen[record["type"]].append(record)
    return [record for pair in chosen.values() for record in pair]


def test_the_question_box_reads_the_bundled_questions_of_every_type_as_their_records_mean():
    app = started(sample="nvidia-jetson", seed_mode="question")
    records = _two_of_each_type()
    assert len({record["type"] for record in records}) == 5
    for record in records:
        app.sidebar.text_input(key="question").set_value(record["query"]).run()
        expected = ckg_query(record)
        assert app.sidebar.selectbox(key="query").value == expected.name, record["query"]
        for parameter, value in expected.arguments:
            widget = app.sidebar.selectbox(key=f"q_{parameter}") if parameter != "taxonomy" else \
                app.sidebar.text_input(key=f"q_{parameter}")
            assert widget.value == value, (record["query"], parameter)
        caption = " ".join(unescaped(item.value) for item in app.sidebar.caption)
        assert "Read as " + expected.name in caption


def test_a_question_with_no_answer_is_refused_on_every_page():
    app = started(sample="nvidia-jetson", seed_mode="question")
    app.sidebar.text_input(key="question").set_value("What are the prerequisites for Jetson Orin?").run()
    for page in ("overview", "contexts", "advisor"):
        on_page(app, page)
        errors = " ".join(unescaped(item.value) for item in app.error)
        assert "This query has no answer on this graph" in errors and "t2_prerequisites(concept=1," in errors
        assert not app.dataframe and not app.metric  # nothing is measured, so nothing shows 100%
