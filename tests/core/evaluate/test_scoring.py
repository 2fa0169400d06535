"""Scoring follows the seed's definitions: strict JSON, required fields, normalisation, exact match, P/R/F1."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.evaluate.scoring import AnswerParseError, parse_answer, score_answer, set_scores
from core.prompt.answers import schema_for

IMPACT_OWNERS = schema_for("impact_owners", None)
GOLD = {"affected": ["svc-api", "svc-auth", "svc-web"],
        "owners": {"svc-api": ["team-core"], "svc-auth": ["team-core"], "svc-web": ["team-growth"]}}
RIGHT = {"affected_services": ["svc-web", "svc-api", "svc-auth"],
         "owners": {"svc-web": ["team-growth"], "svc-auth": ["team-core"], "svc-api": ["team-core"]}}


def test_a_right_answer_in_any_order_is_an_exact_match():
    score = score_answer(IMPACT_OWNERS, json.dumps(RIGHT), GOLD)
    assert score.parse_success and score.exact_match
    assert score.field("affected_services").f1 == 1.0 and score.field("owners").exact


def test_duplicates_are_removed_before_comparing():
    answer = dict(RIGHT, affected_services=["svc-web", "svc-web", "svc-api", "svc-auth", "svc-api"])
    score = score_answer(IMPACT_OWNERS, json.dumps(answer), GOLD)
    assert score.exact_match and score.answer["affected_services"] == ["svc-api", "svc-auth", "svc-web"]


def test_one_unsupported_service_breaks_exact_match_but_not_recall():
    answer = dict(RIGHT, affected_services=RIGHT["affected_services"] + ["svc-profile"])
    score = score_answer(IMPACT_OWNERS, json.dumps(answer), GOLD)
    affected = score.field("affected_services")
    assert not score.exact_match and score.field("owners").exact
    assert (affected.precision, affected.recall) == (0.75, 1.0)
    assert affected.f1 == pytest.approx(2 * 0.75 / 1.75)


def test_owners_are_scored_on_service_team_pairs():
    answer = dict(RIGHT, owners={"svc-api": ["team-core"], "svc-auth": ["team-growth"], "svc-web": ["team-growth"]})
    owners = score_answer(IMPACT_OWNERS, json.dumps(answer), GOLD).field("owners")
    assert not owners.exact and owners.precision == owners.recall == pytest.approx(2 / 3)


@pytest.mark.parametrize("predicted, gold, expected", [
    (set(), set(), (1.0, 1.0, 1.0)),            # "none" was the answer, and it was given
    (set(), {"a"}, (0.0, 0.0, 0.0)),            # nothing predicted: 0/0 precision counts as 0
    ({"a"}, set(), (0.0, 0.0, 0.0)),            # something predicted where nothing was right
    ({"a", "b"}, {"b", "c"}, (0.5, 0.5, 0.5)),
    ({"a"}, {"a", "b", "c", "d"}, (1.0, 0.25, 0.4)),
])
def test_set_scores_and_the_empty_set_rules(predicted, gold, expected):
    scores = set_scores(predicted, gold)
    assert (scores.precision, scores.recall, scores.f1) == pytest.approx(expected)


def test_an_empty_answer_is_exact_when_nothing_is_affected():
    gold = {"affected": [], "owners": {}}
    score = score_answer(IMPACT_OWNERS, '{"affected_services": [], "owners": {}}', gold)
    assert score.exact_match and score.field("affected_services").f1 == 1.0


@pytest.mark.parametrize("reply, reason", [
    ("The affected services are svc-api and svc-web.", "not JSON"),
    ("```json\n" + json.dumps(RIGHT) + "\n```", "not JSON"),
    ('["svc-api"]', "not an object"),
    ('{"affected_services": ["svc-api"]}', "missing field"),
    ('{"affected_services": "svc-api", "owners": {}}', "wrong type"),
    ('{"affected_services": [1, 2], "owners": {}}', "wrong type"),
    ('{"affected_services": [true], "owners": {}}', "wrong type"),
    ('{"affected_services": [["svc-api"]], "owners": {}}', "wrong type"),
    ('{"affected_services": [], "owners": {"svc-api": "team-core"}}', "wrong type"),
    ('{"affected_services": [], "owners": []}', "wrong type"),
    ('{"affected_services": [], "affected_services": [], "owners": {}}', "repeated key"),
    ('{"affected_services": [NaN], "owners": {}}', "not JSON"),
    ("", "not JSON"),
    ("[" * 100_000, "not JSON"),
])
def test_replies_that_do_not_parse_score_zero_with_a_reason(reply, reason):
    score = score_answer(IMPACT_OWNERS, reply, GOLD)
    assert not score.parse_success and not score.exact_match
    assert score.parse_error.startswith(reason)
    assert all(field.f1 == 0.0 and not field.exact for field in score.fields)


def test_a_reply_without_content_does_not_parse():
    assert score_answer(IMPACT_OWNERS, None, GOLD).parse_error.startswith("no content")


def test_a_non_json_reply_scores_zero_even_when_the_gold_answer_is_empty():
    score = score_answer(IMPACT_OWNERS, "none", {"affected": [], "owners": {}})
    assert not score.exact_match and score.field("affected_services").f1 == 0.0


def test_extra_fields_and_surrounding_whitespace_are_allowed():
    reply = "\n  " + json.dumps({**RIGHT, "explanation": "svc-auth depends on db-identity"}) + "\n"
    assert score_answer(IMPACT_OWNERS, reply, GOLD).exact_match


def test_identifiers_are_compared_exactly():
    answer = dict(RIGHT, affected_services=["SVC-API", "svc-auth ", "svc-web"])
    assert not score_answer(IMPACT_OWNERS, json.dumps(answer), GOLD).exact_match


def test_a_sequence_field_keeps_its_order():
    from core.prompt.answers import AnswerField, AnswerSchema
    path = AnswerSchema((AnswerField("path", "sequence", ["node-id"]),))
    assert score_answer(path, '{"path": ["a", "b", "c"]}', ["a", "b", "c"]).exact_match
    reversed_path = score_answer(path, '{"path": ["c", "b", "a"]}', ["a", "b", "c"])
    assert not reversed_path.exact_match and reversed_path.fields[0].f1 == 1.0


def test_a_value_field_takes_a_string_or_null():
    from core.prompt.answers import AnswerField, AnswerSchema
    value = AnswerSchema((AnswerField("relation", "value", "relation"),))
    assert score_answer(value, '{"relation": null}', None).exact_match
    assert score_answer(value, '{"relation": "depends_on"}', "depends_on").exact_match
    assert score_answer(value, '{"relation": 3}', "depends_on").parse_error.startswith("wrong type")


identifiers = st.lists(st.text(max_size=6), max_size=6)


@given(identifiers, identifiers)
def test_f1_is_symmetric_bounded_and_one_exactly_on_equal_sets(first, second):
    forward, backward = set_scores(set(first), set(second)), set_scores(set(second), set(first))
    assert forward.f1 == pytest.approx(backward.f1)
    assert 0.0 <= forward.f1 <= 1.0
    assert (forward.f1 == 1.0) == (set(first) == set(second))


@given(identifiers)
def test_normalised_answers_are_sorted_and_unique(items):
    schema = schema_for("dependencies_within", [])
    assert parse_answer(schema, json.dumps({"dependencies": items})) == {"dependencies": sorted(set(items))}


def test_parse_errors_are_value_errors_with_a_reason():
    with pytest.raises(AnswerParseError) as error:
        parse_answer(IMPACT_OWNERS, "{}")
    assert error.value.reason == "missing field" and "affected_services" in str(error.value)
