"""Formats: how units are written into a context (one module each) and `FORMATS`, their registry.

A new format is one module exposing `FORMAT` and one line below.
"""

from __future__ import annotations

from core.formats import (
    adjacency_list,
    arrows,
    ckg_lines,
    compact_json,
    csv_records,
    cypher,
    dot,
    edge_set,
    edge_tuples,
    flat_compact_json,
    flat_json,
    gml,
    graphml,
    graphrag_tables,
    incident_text,
    ison,
    isongraph,
    jsonl,
    jsonld,
    local_ids,
    markdown_tables,
    mermaid,
    ntriples,
    pretty_json,
    relation_tables,
    semantic_text,
    structured_json,
    toon,
    turtle,
    typed_edges,
    typed_edges_dict,
    untyped_pairs,
    xml_format,
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
    # the serializations the field's benchmarks use (KG-LLM-Bench, GraphOmni, ISONGraph, diagram languages)
    flat_json,
    flat_compact_json,
    ison,
    isongraph,
    jsonld,
    ntriples,
    dot,
    edge_set,
    adjacency_list,
    gml,
    cypher,
    xml_format,
    relation_tables,
    mermaid,
)])

__all__ = ["FORMATS", "Format"]
