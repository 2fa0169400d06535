"""Estimates of the memory a rendering, its token accounting, a text layout or a graph holds, in bytes.

What a size-bounded cache (core.memory.sized_cache) weighs its entries by. An accounting is weighed once,
from figures it already has: its UTF-8 text's length (the records' texts are about as long, plus a string
header each), its arrays, its record count, and the unit keys and atom spans per record counted on a sample
of about RECORDS_SAMPLED records, scaled to all of them. (Calling sys.getsizeof on every record and span of every
rendering a sweep made was 15% of a 300-service sweep.) A graph is weighed from a sample of its nodes and
edges. Strings a rendering shares with the graph (unit keys) are not counted; the graph is weighed on its own,
or with the record memos it may come to hold (`graph_with_memos_bytes`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from core.formats import FORMATS
from core.formats.base import MEMOS_KEPT, RECORDS_KEPT, Record
from core.graph.model import Graph
from core.tokens.prefix_tokens import PrefixTokens

SAMPLED = 4_096  # nodes and edges sampled to weigh a graph
RECORDS_SAMPLED = 64  # records sampled to count a rendering's unit keys and atom spans per record
KEY_INDEX_BYTES = 120  # one entry of an accounting's record_of_key (dict slot, int), built when a page cuts
POINTER = sys.getsizeof((0,)) - sys.getsizeof(())  # one slot of a tuple
STRING_BYTES = sys.getsizeof("")  # a str's header, beside its characters
RECORD_BYTES = sys.getsizeof(Record("", ())) + 2 * sys.getsizeof(())  # the named tuple, its key and span tuples
SPAN_BYTES = POINTER + sys.getsizeof((0, 0, "node_id")) + 2 * sys.getsizeof(1_000)  # a slot, the tuple, 2 offsets


def _scaled(items: Sequence, size) -> int:
    if not items:
        return 0
    step = max(1, len(items) // SAMPLED)
    sample = items[::step]
    return round(sum(map(size, sample)) * len(items) / len(sample))


def accounting_bytes(accounting: PrefixTokens) -> int:
    """The rendering, every token and offset array, the UTF-8 text, and the unit-key index a cut builds.

    The records' texts are weighed as the UTF-8 text's length (which holds them, the preamble and the
    closing) plus a string header each; their keys and spans from a sample.
    """
    rendering = accounting.rendering
    records = accounting.records
    arrays = sum(value.nbytes for value in vars(accounting).values() if isinstance(value, np.ndarray))
    sample = rendering.records[::max(1, records // RECORDS_SAMPLED)]
    keys = sum(len(record.unit_keys) for record in sample)
    spans = sum(len(record.spans) for record in sample)
    key_count = round(keys * records / len(sample)) if sample else 0
    span_count = round(spans * records / len(sample)) if sample else 0
    record_bytes = records * (RECORD_BYTES + STRING_BYTES) + POINTER * key_count + SPAN_BYTES * span_count
    container_bytes = (sys.getsizeof(rendering.records) + sys.getsizeof(rendering.closings)
                       + sys.getsizeof(rendering.preamble))
    return (record_bytes + container_bytes + arrays + 2 * accounting.text_bytes + sys.getsizeof(b"")
            + key_count * KEY_INDEX_BYTES)


def layout_bytes(layout: tuple[str, np.ndarray]) -> int:
    """A text with its records' bounds (an array)."""
    text, bounds = layout
    return sys.getsizeof(text) + sys.getsizeof(bounds)


# A format's record memo of a whole graph, measured with tracemalloc against graph_bytes: 1.3 (yaml) to 1.9
# (pretty_json) times the graph's own bytes, semantic_text 2.3 on the 300-service graph's properties.
MEMO_TO_GRAPH = 2.5


def graph_with_memos_bytes(graph: Graph) -> int:
    """A graph and the most its record memos may hold (core.formats.base keeps a graph's memos: the two newest
    formats', and older ones while all hold at most RECORDS_KEPT records; one record per unit and format at most)."""
    own = graph_bytes(graph)
    units = len(graph.nodes) + len(graph.edges)
    if not units:
        return own
    records = min(len(FORMATS) * units, max(MEMOS_KEPT * units, RECORDS_KEPT + units))
    return own + int(MEMO_TO_GRAPH * own / units * records)


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
