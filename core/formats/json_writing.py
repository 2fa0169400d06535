"""Writing JSON values piece by piece while recording atom spans (shared by the JSON formats)."""

from __future__ import annotations

import json

from core.formats.base import AtomKind, RecordText
from core.graph.model import Properties, PropertyValue

# What json.dumps(value, ensure_ascii=False) builds on every call, built once: the same text.
_SCALAR = json.JSONEncoder(ensure_ascii=False)
_STRING = json.encoder.encode_basestring  # what _SCALAR.encode does with a string, without the dispatch


def json_scalar(value: PropertyValue) -> str:
    return _SCALAR.encode(value)


def add_scalar(record: RecordText, value: PropertyValue, kind: AtomKind | None, before: str = "") -> None:
    """Write `before` then a JSON scalar; the atom covers a string's content without its quotes."""
    if isinstance(value, str):
        record.add_around(before + '"', _STRING(value)[1:-1], '"', kind)
    else:
        record.add_around(before, _SCALAR.encode(value), "", kind)


def add_compact_properties(record: RecordText, properties: Properties) -> None:
    """`{"key":value,...}` as json.dumps(separators=(",", ":")) writes it."""
    for index, (key, value) in enumerate(properties):
        add_scalar(record, key, "property_key", "," if index else "{")
        add_scalar(record, value, "property_value", ":")
    record.add("}")
