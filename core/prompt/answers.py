"""Answer schemas: the JSON fields a model must return for each query template, and gold answers as fields.

A query's solver returns its answer in its own shape (a sorted id list, an id -> ids mapping, a
dict of both). A model is asked for a JSON object instead, one named field per part of the answer,
so each part can be scored on its own (the seed scores affected services and owners separately).

Field kinds:
- "set":      a list of identifiers; order and duplicates do not matter (normalised: deduplicated, sorted).
- "mapping":  an object identifier -> list of identifiers (each list normalised as a set, keys sorted).
- "sequence": a list of identifiers whose order matters (a path); kept as given.
- "value":    one identifier, or null.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

FieldKind = Literal["set", "mapping", "sequence", "value"]


@dataclass(frozen=True)
class AnswerField:
    name: str
    kind: FieldKind
    example: object  # the placeholder the prompt shows, e.g. ["service-id"]


@dataclass(frozen=True)
class AnswerSchema:
    """The fields of one query template's answer, and how its solver's answer maps onto them."""

    fields: tuple[AnswerField, ...]
    # How the solver's answer maps onto the fields: "whole" (it is the one field), "keys" (a dict, one
    # key per field) or "positions" (a list, one position per field; an empty list leaves every field null).
    split: str = "whole"
    keys: tuple[str, ...] = ()  # with split="keys": the solver's key for each field, in field order

    def example_json(self) -> str:
        """The JSON shape shown in the prompt, laid out like the seed's template (lists on one line)."""
        return _shape({field.name: field.example for field in self.fields}, "")

    def fields_of(self, answer: object) -> dict[str, object]:
        """A solver's answer as answer fields (not yet normalised)."""
        if self.split == "whole":
            return {self.fields[0].name: answer}
        if self.split == "positions":
            values = list(answer) if isinstance(answer, (list, tuple)) else []
            return {field.name: values[index] if index < len(values) else None
                    for index, field in enumerate(self.fields)}
        if not isinstance(answer, dict):
            raise TypeError(f"expected a dict answer with keys {self.keys}, got {type(answer).__name__}")
        return {field.name: answer.get(key) for field, key in zip(self.fields, self.keys)}


def _shape(value: object, indent: str) -> str:
    if not isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    inner = indent + "  "
    lines = [f"{inner}{json.dumps(key, ensure_ascii=False)}: {_shape(item, inner)}" for key, item in value.items()]
    return "{\n" + ",\n".join(lines) + "\n" + indent + "}"


def _single(name: str, kind: FieldKind, example: object) -> AnswerSchema:
    return AnswerSchema((AnswerField(name, kind, example),))


_IDS = ["node-id"]
_OWNERS = {"service-id": ["team-id"]}
_LABELS = ["concept label"]  # the CKG queries answer with labels, as its ground truth does

# One schema per registered query template (a test checks that none is missing: the shape rule of
# `schema_for` cannot know that a list is an ordered path); the seed's reference question
# (impact_owners) uses the seed's own field names.
_SCHEMAS: dict[str, AnswerSchema] = {
    "dependencies_within": _single("dependencies", "set", _IDS),
    "impact": _single("affected_services", "set", ["service-id"]),
    "owners_of": _single("owners", "mapping", _OWNERS),
    "owners_of_affected": _single("owners", "mapping", _OWNERS),
    "impact_owners": AnswerSchema(
        (AnswerField("affected_services", "set", ["service-id"]), AnswerField("owners", "mapping", _OWNERS)),
        split="keys", keys=("affected", "owners")),
    "shortest_path": _single("path", "sequence", ["first-node-id", "next-node-id"]),
    "typed_neighbours": _single("neighbours", "set", _IDS),
    "t1_entity": AnswerSchema((AnswerField("label", "value", "concept label"),
                               AnswerField("taxonomy", "value", "taxonomy code")), split="positions"),
    "t2_prerequisites": _single("prerequisites", "set", _LABELS),
    "t3_prerequisite_path": _single("chain", "sequence", ["first concept label", "next concept label"]),
    "t4_taxonomy_members": _single("concepts", "set", _LABELS),
    "t5_relation": _single("concepts", "set", _LABELS),
}


def _kind_of(value: object) -> FieldKind:
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, (list, tuple)):
        return "set"
    return "value"


_EXAMPLES: dict[FieldKind, object] = {"set": _IDS, "mapping": {"node-id": _IDS}, "sequence": _IDS,
                                      "value": "node-id"}


def schema_for(template_name: str, gold_answer: object) -> AnswerSchema:
    """The schema of a template, or for a template without one, a schema derived from its gold answer.

    Derived: a list is one set field "answer"; a dict whose values are all lists is one mapping
    field "answer"; any other dict gives one field per key, each by its value's shape; anything
    else is one value field "answer".
    """
    if template_name in _SCHEMAS:
        return _SCHEMAS[template_name]
    if isinstance(gold_answer, dict) and gold_answer and not all(
            isinstance(value, (list, tuple)) for value in gold_answer.values()):
        keys = tuple(sorted(gold_answer))
        fields = tuple(AnswerField(key, _kind_of(gold_answer[key]), _EXAMPLES[_kind_of(gold_answer[key])])
                       for key in keys)
        return AnswerSchema(fields, split="keys", keys=keys)
    kind = _kind_of(gold_answer)
    return _single("answer", kind, _EXAMPLES[kind])
