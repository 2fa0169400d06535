"""Writing JSON values piece by piece while recording atom spans (shared by the JSON formats)."""

from __future__ import annotations

import json

from core.formats.base import AtomKind, RecordText
from core.graph.model import Properties, PropertyValue

# What json.dumps(value, ensure_ascii=False) builds on every call, built once: the same text.
_SCALAR = json.JSONEncoder(ensure_ascii=False)


def json_scalar(value: PropertyValue) -> str:
    return _SCALAR.encode(value)


def add_scalar(record: RecordText, value: PropertyValue, kind: AtomKind | None) -> None:
    """Write a JSON scalar; the atom covers a string's content without its quotes."""
    text = json_scalar(value)
    if isinstance(value, str):
        record.add('"').add(text[1:-1], kind).add('"')
    else:
        record.add(text, kind)


def add_compact_properties(record: RecordText, properties: Properties) -> None:
    """`{"key":value,...}` as json.dumps(separators=(",", ":")) writes it."""
    record.add("{")
    for index, (key, value) in enumerate(properties):
        if index:
            record.add(",")
        add_scalar(record, key, "property_key")
        record.add(":")
        add_scalar(record, value, "property_value")
    record.add("}")
