"""Answer schemas: one per registered query template, gold answers as fields, the prompt's JSON shape."""

from __future__ import annotations

from core.prompt.answers import _SCHEMAS, schema_for
from core.queries import QUERIES


def test_every_registered_query_template_has_an_answer_schema():
    # Without one, a list answer would be scored as a set: an ordered path would lose its order.
    assert set(QUERIES.names()) <= set(_SCHEMAS)


def test_the_reference_question_uses_the_seeds_fields_and_layout():
    schema = schema_for("impact_owners", None)
    assert schema.example_json() == ('{\n  "affected_services": ["service-id"],\n  "owners": {\n'
                                     '    "service-id": ["team-id"]\n  }\n}')
    gold = {"affected": ["svc-api"], "owners": {"svc-api": ["team-core"]}}
    assert schema.fields_of(gold) == {"affected_services": ["svc-api"], "owners": {"svc-api": ["team-core"]}}


def test_an_entity_answer_fills_fields_by_position_and_an_absent_entity_leaves_them_null():
    schema = schema_for("t1_entity", None)
    assert schema.fields_of(["Jetson Nano", "HW"]) == {"label": "Jetson Nano", "taxonomy": "HW"}
    assert schema.fields_of([]) == {"label": None, "taxonomy": None}


def test_a_template_without_a_schema_gets_one_from_the_answers_shape():
    assert [(f.name, f.kind) for f in schema_for("new_list", ["a"]).fields] == [("answer", "set")]
    assert [(f.name, f.kind) for f in schema_for("new_map", {"a": ["b"]}).fields] == [("answer", "mapping")]
    assert [(f.name, f.kind) for f in schema_for("new_pair", {"n": 1, "ids": ["a"]}).fields] == [
        ("ids", "set"), ("n", "value")]
    assert [(f.name, f.kind) for f in schema_for("new_value", None).fields] == [("answer", "value")]
