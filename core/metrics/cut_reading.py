"""What a cut's document holds, read from its kept units where the format contract allows, else decoded.

Decoding the document is the proof (`core.metrics.cut_metrics.decode_cut`); reading the kept units is
the fast path, which gives the same graph by the format contract (tests/core/metrics/test_cut_reading.py
checks it on every format and policy):
- a record prefix of a lossless format holds exactly the graph of its records' units;
- a record prefix of a lossy format with a known image holds the image of its units;
- a raw cut ending inside a record holds its whole records plus what its partial last record adds,
  where the format can read such a tail (`core.formats.cut_parse`);
- anything else (a sections cut of a lossy format, a raw cut the format cannot read a tail of) is decoded.

Shared by the sweep (every budget of every rendering) and the Contexts page (one cut per budget change:
decoding the kept half of a 200,000-edge graph's JSON took 0.2 to 1.5 s per panel).
"""

from __future__ import annotations

import gc

from core.budget.policies import Cut
from core.formats.base import Format, Rendering
from core.formats.cut_parse import tail_verdict
from core.graph.derived import memo_of
from core.graph.kept import UnitPositions, image_positions, positions_for
from core.graph.model import Graph
from core.metrics.cut_metrics import DecodedCut, decode_cut, kept_cut
from core.tokens.prefix_tokens import PrefixTokens


def document_identity(result: Cut, accounting: PrefixTokens) -> tuple | None:
    """What identifies a cut's document within one rendering (None for an empty cut, which says why itself).

    A record cut's document is the prefix of its records; so is a raw cut's when it ends exactly there.
    """
    if result.empty:
        return None
    if result.policy == "record":
        return ("prefix", result.records_kept)
    if result.selection:  # its own rendering of the kept units: the text says which
        return ("selection", result.document)
    if result.document == accounting.prefix_text(result.records_kept):
        return ("prefix", result.records_kept)
    return ("raw", result.document)


def image_cut(result: Cut, positions: UnitPositions | None, accounting: PrefixTokens) -> DecodedCut | None:
    """`kept_cut` for a lossy format with a known image: a record prefix reads as the image of its units."""
    if result.empty:
        return DecodedCut(None, result.explanation or "the cut is empty")
    if positions is None or result.selection:
        return None
    if result.policy == "raw" and result.document != accounting.prefix_text(result.records_kept):
        return None
    return DecodedCut(positions.kept(result.records_kept))


def tail_reading(result: Cut, format_: Format, positions: UnitPositions | None,
                 accounting: PrefixTokens) -> DecodedCut | None:
    """A raw cut ending inside a record, read from its partial last statement (`core.formats.cut_parse`).

    The error its tail raises is the error the whole cut raises; otherwise the cut holds the graph of
    the whole records plus what the tail adds. None when only decoding the whole cut can tell.
    """
    if format_.tail_start is None:
        return None
    kept = result.records_kept
    records = accounting.prefix_text(kept)
    records = records[:len(records) - len(accounting.rendering.closings[kept])]
    if not result.document.startswith(records):
        return None
    own_record = (lambda node_id: positions.own_record(node_id, kept)) if positions is not None else None
    verdict = tail_verdict(format_, accounting.rendering, kept, len(records), result.document, own_record)
    if verdict is None:
        return None
    if verdict.error:
        return DecodedCut(None, verdict.error)
    return DecodedCut(positions.kept(kept, verdict.nodes, verdict.edges)) if positions is not None else None


def index_ahead(rendering: Rendering, format_: Format, graph: Graph) -> None:
    """Build what reading a cut of this rendering of `graph` needs first, kept on the rendering: its record index,
    the nodes and edges each prefix carries, and (lossless formats) the record of each unit of the graph: work done
    while the rendering's tokens are counted elsewhere is off the time a page waits for them."""
    _ = rendering.kept_node_and_edge_counts
    if format_.lossless:
        positions_for(rendering, graph, rendering.record_of_key)


def reading_positions(accounting: PrefixTokens, format_: Format, graph: Graph) -> UnitPositions | None:
    """The positions a cut of this rendering of `graph` is read from: the graph's own units for a lossless
    format, the format's image of them for a lossy one that has one; None when only decoding can tell."""
    if format_.lossless:
        return positions_for(accounting.rendering, graph, accounting.record_of_key)
    if format_.image is None:
        return None
    memo = memo_of(accounting)  # (format name, graph, its image's positions): once per rendering, not per cut
    found = memo.get("image positions")
    if found is None or found[0] != format_.name or found[1] is not graph:
        found = memo["image positions"] = (format_.name, graph, image_positions(graph, format_,
                                                                                accounting.rendering.records))
    return found[2]


def read_cut(result: Cut, format_: Format, accounting: PrefixTokens, graph: Graph) -> DecodedCut:
    """What the cut's document holds: read from the kept units of `accounting` (a rendering of `graph`)
    where the format allows, decoded otherwise."""
    positions = reading_positions(accounting, format_, graph)
    reading = (kept_cut(result, format_, positions, accounting.prefix_text) if format_.lossless
               else image_cut(result, positions, accounting))
    if reading is None and result.policy == "raw":
        reading = tail_reading(result, format_, positions, accounting)
    return reading if reading is not None else decoded_without_collections(result, format_)


def decoded_without_collections(result: Cut, format_: Format) -> DecodedCut:
    """`decode_cut` with the cyclic garbage collector paused (reference counting still frees everything).

    A parse makes 100,000s of containers that live until it ends; on a server holding a large graph's
    renderings they triggered a full collection every second or third decode of its raw cut (about 0.5 s
    each, beside a 70 ms parse of compact_json's 4.9 million characters)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return decode_cut(result, format_)
    finally:
        if enabled:
            gc.enable()
