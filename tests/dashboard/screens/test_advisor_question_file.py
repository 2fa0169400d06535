"""The Advisor advises over an uploaded question file, uploaded on its own page or on the Question set page,
with the formats, orderings and policies chosen on the Advisor (not one ordering): the advice core gives."""

from __future__ import annotations

import json

from core.analysis.advisor import AdviceSettings, advise_set
from core.io.samples import default_sample, load_sample
from core.questions import parse_question_file
from dashboard.state.question_file import remember, remembered
from tests.dashboard.conftest import app_test, on_page, unescaped

QUESTIONS = b"\n".join(json.dumps(record).encode() for record in (
    {"id": "impact-identity", "question": "If db-identity fails, which services are transitively affected?",
     "query": "impact", "parameters": {"failed": "db-identity", "node_type": "service", "relation": "depends_on"}},
    {"id": "auth-owner", "question": "Which team owns svc-auth?", "query": "owners_of",
     "parameters": {"nodes": ["svc-auth"], "relation": "owned_by"}})) + b"\n"
NAME = "my-questions.jsonl"
CHOSEN = {"budget": "4096", "budgets": "4096", "advisor_formats": ["csv", "jsonl"],
          "advisor_orderings": ["hop_tiers", "canonical", "shuffled"], "advisor_policies": ["record"]}


def expected_advice():
    graph = load_sample(default_sample().name)
    questions = parse_question_file(QUESTIONS, NAME, graph=graph)
    return advise_set(graph, questions, AdviceSettings(budgets=(4096,), budget=4096, formats=("csv", "jsonl"),
                                                       orderings=("hop_tiers", "canonical", "shuffled"),
                                                       policies=("record",)))


def shows(app, expected) -> None:
    assert expected.questions == 2
    headline = unescaped(app.success[0].value) if expected.answers else unescaped(app.warning[0].value)
    assert (f"**Use {expected.best.name}**" in headline and "2 questions" in headline) if expected.answers \
        else headline == expected.nothing_answers
    assert expected.reason in unescaped(" ".join(item.value for item in app.markdown))
    ranking = app.dataframe[-1].value
    assert set(ranking["ordering"]) == {"hop_tiers", "canonical", "shuffled"}  # every ordering chosen, not one


def test_a_file_uploaded_on_the_advisor_is_advised_over():
    app = on_page(app_test(**CHOSEN).run(), "advisor")
    assert "a question file" in app.radio(key="advisor_scope").options
    app.radio(key="advisor_scope").set_value("a question file").run()
    assert any("Upload a question file" in item.value for item in app.info)  # nothing yet: asked for one
    app.file_uploader(key="advisor_question_upload").set_value((NAME, QUESTIONS, "application/json")).run()
    assert not app.exception, [item.value for item in app.exception]
    shows(app, expected_advice())


def test_a_file_uploaded_on_the_question_set_page_is_offered_on_the_advisor():
    app = on_page(app_test(**CHOSEN, qs_source="upload").run(), "question_set")
    app.file_uploader(key="qs_upload").set_value((NAME, QUESTIONS, "application/json")).run()
    assert not app.exception, [item.value for item in app.exception]
    on_page(app, "advisor")
    app.radio(key="advisor_scope").set_value("a question file").run()
    assert not app.exception, [item.value for item in app.exception]
    assert any(NAME in unescaped(item.value) for item in app.caption)  # says which file it advises over
    shows(app, expected_advice())


def test_an_upload_is_kept_for_its_own_graph_only():
    state: dict = {}
    assert remembered(state, "graph-a") is None
    kept = remember(state, NAME, QUESTIONS, "graph-a")
    assert remembered(state, "graph-a") == kept and kept.digest == remember({}, NAME, QUESTIONS, "graph-b").digest
    assert remembered(state, "graph-b") is None
