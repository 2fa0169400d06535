"""Whether a raw cut parses, decided from its last, partial statement instead of the whole document.

A raw cut of a rendering is its first whole records, then part of the next one. For a format whose
decoder reads statement by statement (a line, a page, a Turtle statement) and whose statements do
not refer to each other (`Format.tail_start` says where the partial statement begins), the decoder
meets the whole statements first, and they parse (any record prefix decodes: the format contract,
property-tested). So the cut's first decoding error, if any, lies in the tail, and the tail reads
the same at the same line number: decoding `preamble + blank lines + tail` gives the same error
text as decoding the whole cut. When the tail decodes to nothing (a partial line holding only a
line break), the cut holds exactly its whole records. Anything else (the tail parses to a node or
an edge) is left to the whole decode.

`tests/core/formats/test_cut_parse.py` compares this with decoding the whole cut on every sample,
every such format and many cut points; `sweep(verify=True)` compares every metric of every cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import FormatError
from core.formats.base import Format, Rendering


@dataclass(frozen=True)
class TailVerdict:
    """What the tail alone says: the error the whole cut raises, or that it holds only its whole records."""

    error: str = ""
    whole_records_only: bool = False


def tail_document(format_: Format, rendering: Rendering, kept: int, records_end: int, document: str) -> str | None:
    """The preamble, one blank line per line break before the tail, then the tail; None if not applicable.

    `records_end` is where the cut's `kept` whole records end in `document` (without a closing).
    """
    if format_.tail_start is None or not document.startswith(rendering.preamble):
        return None
    start = format_.tail_start(rendering, kept, records_end)
    preamble = len(rendering.preamble)
    if not preamble <= start <= records_end <= len(document):
        return None
    if start and document[start - 1] != "\n" and not document.startswith("\n", start):
        return None  # the tail would begin inside a line (a whole record's line is not ended yet)
    return rendering.preamble + "\n" * document.count("\n", preamble, start) + document[start:]


def tail_verdict(format_: Format, rendering: Rendering, kept: int, records_end: int,
                 document: str) -> TailVerdict | None:
    """The cut's parse verdict from its tail, or None when only decoding the whole cut can tell."""
    padded = tail_document(format_, rendering, kept, records_end, document)
    if padded is None or format_.tail_start is None:  # tail_document is None without a tail_start too
        return None
    try:
        graph = format_.decode(padded)
    except FormatError as error:
        return TailVerdict(error=str(error))
    if not graph.nodes and not graph.edges and format_.tail_start(rendering, kept, records_end) == records_end:
        return TailVerdict(whole_records_only=True)
    return None
