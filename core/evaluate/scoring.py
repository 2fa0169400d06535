"""Scoring a model's answer against the gold answer: strict JSON, required fields, normalisation, exact match, P/R/F1.

The rules, fixed before any run (the seed asks for them to be stated in advance):

- Parsing is strict: the whole reply must be one JSON object (surrounding whitespace allowed, no
  code fences, no prose); NaN/Infinity and repeated keys are refused. Every field of the query's
  answer schema must be present with the right type; extra fields are ignored.
- Types: a set or sequence field is a list of strings; a mapping field is an object whose values
  are lists of strings; a value field is a string or null. Numbers, booleans or nested lists
  where identifiers belong make the reply unparsable (identifiers are compared exactly, never coerced).
- Normalisation: set fields and the lists inside mappings are deduplicated and sorted; sequences
  keep their order; identifiers are compared exactly (no case folding, no trimming).
- Exact match: every field equals the gold field after normalisation.
- Precision, recall and F1 per field, with P the predicted and G the gold identifier set:
  precision = |P ∩ G| / |P|, recall = |P ∩ G| / |G|, F1 = 2PR / (P + R).
  Empty sets: when P and G are both empty the answer is right and all three are 1.0; when only one
  is empty, every ratio whose denominator is zero is 0.0, so all three are 0.0. An empty answer
  scores only when "none" is the gold answer.
  Set fields use their identifiers; mapping fields use (key, value) pairs (a key with an empty
  list adds no pair, but still counts for exact match); sequence fields use their identifiers as a
  set (order counts only for exact match); value fields use a set of zero or one identifier.
- A reply that does not parse scores 0.0 everywhere and is not an exact match, whatever the gold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from core.prompt.answers import AnswerField, AnswerSchema


class AnswerParseError(ValueError):
    """A reply is not a JSON object with the schema's fields; `reason` is a short stored label."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        super().__init__(f"{reason}: {detail}")


@dataclass(frozen=True)
class SetScores:
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class FieldScore:
    name: str
    kind: str
    exact: bool
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class AnswerScore:
    parse_success: bool
    parse_error: str  # "" when it parsed
    answer: dict | None  # the normalised answer fields
    fields: tuple[FieldScore, ...]

    @property
    def exact_match(self) -> bool:
        return self.parse_success and all(field.exact for field in self.fields)

    def field(self, name: str) -> FieldScore | None:
        return next((field for field in self.fields if field.name == name), None)


def set_scores(predicted: set, gold: set) -> SetScores:
    """Precision, recall and F1 of a predicted set against a gold set, with the empty-set rules above."""
    if not predicted and not gold:
        return SetScores(1.0, 1.0, 1.0)
    hits = len(predicted & gold)
    precision = hits / len(predicted) if predicted else 0.0
    recall = hits / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return SetScores(precision, recall, f1)


def _refuse_constant(name: str) -> None:
    raise AnswerParseError("not JSON", f"{name} is not a JSON number")


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict:
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise AnswerParseError("repeated key", f"the object repeats {repeated}")
    return dict(pairs)


def parse_json_object(text: str) -> dict:
    """The reply as a JSON object, strictly."""
    try:
        value = json.loads(text, object_pairs_hook=_no_repeated_keys, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise AnswerParseError("not JSON", f"{error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise AnswerParseError("not JSON", "nested too deeply") from None
    if not isinstance(value, dict):
        raise AnswerParseError("not an object", f"the reply is a JSON {type(value).__name__}, not an object")
    return value


def _identifiers(value: object, where: str) -> list[str]:
    if not isinstance(value, list):
        raise AnswerParseError("wrong type", f"{where} must be a list of identifiers, not {type(value).__name__}")
    for item in value:
        if not isinstance(item, str):
            raise AnswerParseError("wrong type", f"{where} holds {item!r}, which is not an identifier string")
    return value


def normalise_field(field: AnswerField, value: object) -> object:
    """Check one field's type and normalise it; raises AnswerParseError on a wrong type."""
    where = f"field {field.name!r}"
    if field.kind == "set":
        return sorted(set(_identifiers(value, where)))
    if field.kind == "sequence":
        return list(_identifiers(value, where))
    if field.kind == "mapping":
        if not isinstance(value, dict):
            raise AnswerParseError("wrong type", f"{where} must be an object, not {type(value).__name__}")
        return {key: sorted(set(_identifiers(value[key], f"{where}[{key!r}]"))) for key in sorted(value)}
    if value is not None and not isinstance(value, str):
        raise AnswerParseError("wrong type", f"{where} must be an identifier string or null")
    return value


def normalise_answer(schema: AnswerSchema, value: dict) -> dict:
    missing = [field.name for field in schema.fields if field.name not in value]
    if missing:
        raise AnswerParseError("missing field", f"the reply lacks {missing}")
    return {field.name: normalise_field(field, value[field.name]) for field in schema.fields}


def parse_answer(schema: AnswerSchema, text: str) -> dict:
    """Strict JSON, required fields, types, normalisation. Raises AnswerParseError."""
    return normalise_answer(schema, parse_json_object(text))


def _items(kind: str, value: Any) -> set:  # a normalised answer field: `kind` says its JSON shape
    if kind == "mapping":
        return {(key, item) for key, items in value.items() for item in items}
    if kind == "value":
        return set() if value is None else {value}
    return set(value)


def score_field(field: AnswerField, predicted: object, gold: object) -> FieldScore:
    scores = set_scores(_items(field.kind, predicted), _items(field.kind, gold))
    return FieldScore(field.name, field.kind, predicted == gold, scores.precision, scores.recall, scores.f1)


def score_answer(schema: AnswerSchema, text: str | None, gold_answer: object) -> AnswerScore:
    """Score a reply against the gold answer of the solver (which is normalised the same way)."""
    gold = normalise_answer(schema, schema.fields_of(gold_answer))
    try:
        if text is None:
            raise AnswerParseError("no content", "the reply has no message content")
        answer = parse_answer(schema, text)
    except AnswerParseError as error:
        failed = tuple(FieldScore(field.name, field.kind, False, 0.0, 0.0, 0.0) for field in schema.fields)
        return AnswerScore(False, str(error), None, failed)
    fields = tuple(score_field(field, answer[field.name], gold[field.name]) for field in schema.fields)
    return AnswerScore(True, "", answer, fields)
