"""The Contexts caption names the query's seeds by label with their ids, never by a bare id or an empty slot."""

from __future__ import annotations

from tests.dashboard.conftest import on_page, started, unescaped


def caption_text(app) -> str:
    return next(unescaped(item.value) for item in app.caption if "Query:" in item.value)


def test_a_labelled_seed_is_named_by_label_and_id():
    app = on_page(started(sample="nvidia-jetson"), "contexts")
    assert "Which nodes does Tensorrt (node 12) reach over depends_on edges in at most 3 hops?" in caption_text(app)


def test_the_adversarial_sample_names_a_seed_a_question_can_reach():
    app = started(sample="adversarial", seed_mode="question")
    question = app.sidebar.text_input(key="question").value
    # the first node whose question has an answer, named by its label (was "What depends on ?")
    assert question.startswith("Which nodes does svc-a -> svc-b -> svc-c reach")
    assert not app.sidebar.warning  # the question names its seed, so no fallback is needed
    caption = caption_text(on_page(app, "contexts"))
    assert "svc-a -> svc-b -> svc-c" in caption and " reach over " in caption and "does  reach" not in caption
