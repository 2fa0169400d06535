"""Formats: how units are written into a context (one module each) and `FORMATS`, their registry.

A new format is one module exposing `FORMAT` and one line below.
"""

from __future__ import annotations

from core.formats import (
    arrows,
    ckg_lines,
    compact_json,
    csv_records,
    edge_tuples,
    graphml,
    graphrag_tables,
    incident_text,
    jsonl,
    local_ids,
    markdown_tables,
    pretty_json,
    semantic_text,
    structured_json,
    toon,
    turtle,
    typed_edges,
    typed_edges_dict,
    untyped_pairs,
    yaml_format,
)
from core.formats.base import Format
from core.registry import Registry

FORMATS: Registry[Format] = Registry("format", [(module.FORMAT.name, module.FORMAT) for module in (
    pretty_json,
    compact_json,
    jsonl,
    csv_records,
    typed_edges,
    typed_edges_dict,
    local_ids,
    semantic_text,
    ckg_lines,
    edge_tuples,
    arrows,
    incident_text,
    untyped_pairs,
    toon,
    yaml_format,
    structured_json,
    turtle,
    graphml,
    markdown_tables,
    graphrag_tables,
)])

__all__ = ["FORMATS", "Format"]
