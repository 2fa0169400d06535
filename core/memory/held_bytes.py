"""Estimates of the memory a rendering, its token accounting, a text layout or a graph holds, in bytes.

What a size-bounded cache (core.memory.sized_cache) weighs its entries by. Estimated from a sample of
at most SAMPLED records or units (sys.getsizeof of each object it owns), scaled to all of them: sizing
a 240,000-record rendering exactly would walk millions of objects on every insertion. Strings a
rendering shares with the graph (unit keys) are not counted; the graph is weighed on its own.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from core.formats.base import Record, Rendering
from core.graph.model import Graph
from core.tokens.prefix_tokens import PrefixTokens

SAMPLED = 4_096
KEY_INDEX_BYTES = 120  # one entry of an accounting's record_of_key (dict slot, int), built when a page cuts


def record_bytes(record: Record) -> int:
    """A record (a named tuple), its text, its key tuple and its spans (each a tuple of two offsets and a kind)."""
    spans = record.spans
    span_bytes = sum(sys.getsizeof(span) + sys.getsizeof(span[0]) + sys.getsizeof(span[1]) for span in spans)
    return (sys.getsizeof(record) + sys.getsizeof(record.text) + sys.getsizeof(record.unit_keys)
            + sys.getsizeof(spans) + span_bytes)


def _scaled(items: Sequence, size) -> int:
    if not items:
        return 0
    step = max(1, len(items) // SAMPLED)
    sample = items[::step]
    return round(sum(map(size, sample)) * len(items) / len(sample))


def rendering_bytes(rendering: Rendering) -> int:
    """Its records (sampled, scaled), the records and closings tuples, the preamble."""
    return (_scaled(rendering.records, record_bytes) + sys.getsizeof(rendering.records)
            + sys.getsizeof(rendering.closings) + sys.getsizeof(rendering.preamble))


def accounting_bytes(accounting: PrefixTokens) -> int:
    """The rendering, every token and offset array, the UTF-8 text, and the unit-key index a cut builds."""
    arrays = sum(value.nbytes for value in vars(accounting).values() if isinstance(value, np.ndarray))
    keys = sum(len(record.unit_keys) for record in accounting.rendering.records[::max(1, accounting.records // SAMPLED)])
    sampled = len(accounting.rendering.records[::max(1, accounting.records // SAMPLED)])
    key_count = round(keys * accounting.records / sampled) if sampled else 0
    return (rendering_bytes(accounting.rendering) + arrays + accounting.text_bytes + sys.getsizeof(b"")
            + key_count * KEY_INDEX_BYTES)


def layout_bytes(layout: tuple[str, np.ndarray]) -> int:
    """A text with its records' bounds (an array)."""
    text, bounds = layout
    return sys.getsizeof(text) + sys.getsizeof(bounds)


def graph_bytes(graph: Graph) -> int:
    """Nodes and edges (sampled, scaled: each object, its strings and properties) and the id index."""
    def node_size(node) -> int:
        return (sys.getsizeof(node) + sys.getsizeof(node.__dict__) + sys.getsizeof(node.id)
                + _properties_bytes(node.properties))

    def edge_size(edge) -> int:
        return (sys.getsizeof(edge) + sys.getsizeof(edge.__dict__) + sys.getsizeof(edge.source)
                + sys.getsizeof(edge.target) + _properties_bytes(edge.properties))

    index = sys.getsizeof(graph.node_by_id) if graph.nodes else 0
    cached = sum(sys.getsizeof(value) for value in vars(graph).values() if isinstance(value, str))  # canonical text
    return (_scaled(graph.nodes, node_size) + _scaled(graph.edges, edge_size) + sys.getsizeof(graph.nodes)
            + sys.getsizeof(graph.edges) + index + cached)


def _properties_bytes(properties) -> int:
    return sys.getsizeof(properties) + sum(sys.getsizeof(pair) + sys.getsizeof(pair[0]) + sys.getsizeof(pair[1])
                                           for pair in properties)
