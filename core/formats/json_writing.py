"""Writing JSON values piece by piece while recording atom spans (shared by the JSON formats)."""

from __future__ import annotations

import json

from core.formats.base import AtomKind, Record, RecordText, Span
from core.graph.model import Properties, PropertyValue

# What json.dumps(value, ensure_ascii=False) builds on every call, built once: the same text.
_SCALAR = json.JSONEncoder(ensure_ascii=False)
_STRING = json.encoder.encode_basestring  # what _SCALAR.encode does with a string, without the dispatch


def add_scalar(record: RecordText, value: PropertyValue, kind: AtomKind | None, before: str = "") -> None:
    """Write `before` then a JSON scalar; the atom covers a string's content without its quotes."""
    if isinstance(value, str):
        record.add_around(before + '"', _STRING(value)[1:-1], '"', kind)
    else:
        record.add_around(before, _SCALAR.encode(value), "", kind)


def string_fields_record(key: str, lead: str, labels: tuple[str, ...], values: tuple[str, ...],
                         kinds: tuple[AtomKind, ...]) -> Record:
    """`lead + labels[0] + v0 + labels[1] + v1 + ... + labels[-1]` for two or three string values, each written as a
    JSON string's content (the labels hold the quotes), its atom found by adding lengths. A record without
    properties (every edge of most graphs) is written in one step: the largest graph's 200,000 edges took twice
    as long piece by piece."""
    texts = [_STRING(value)[1:-1] for value in values]
    start = len(lead) + len(labels[0])
    end = start + len(texts[0])
    spans: list[Span] = [(start, end, kinds[0])] if texts[0] else []
    start = end + len(labels[1])
    end = start + len(texts[1])
    if texts[1]:
        spans.append((start, end, kinds[1]))
    if len(texts) == 2:
        return Record(f"{lead}{labels[0]}{texts[0]}{labels[1]}{texts[1]}{labels[2]}", (key,), tuple(spans))
    start = end + len(labels[2])
    if texts[2]:
        spans.append((start, start + len(texts[2]), kinds[2]))
    return Record(f"{lead}{labels[0]}{texts[0]}{labels[1]}{texts[1]}{labels[2]}{texts[2]}{labels[3]}", (key,),
                  tuple(spans))


def add_compact_properties(record: RecordText, properties: Properties) -> None:
    """`{"key":value,...}` as json.dumps(separators=(",", ":")) writes it."""
    for index, (key, value) in enumerate(properties):
        add_scalar(record, key, "property_key", "," if index else "{")
        add_scalar(record, value, "property_value", ":")
    record.add("}")
