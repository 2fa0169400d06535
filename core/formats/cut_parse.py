"""What a raw cut's document decodes to, read from its last, partial statement instead of the whole document.

A raw cut of a rendering is its first whole records, then part of the next one. For a format whose
decoder reads statement by statement (a line, a page, a Turtle statement), skips blank lines, and
merges what the statements give with `decoded_graph` (`Format.tail_start` says where the partial
statement begins), the whole statements parse (any record prefix decodes: the format contract,
property-tested), so the cut's first decoding error, if any, lies in the tail, and the tail reads
the same at the same line number. The tail is decoded in a small document: the preamble, then each
whole record as blank lines (one per line break) unless it is *context*, whose text stays in place.
Context is what the tail needs to read as it does in the whole cut (`Format.tail_context`: the
`## edges` header and the node rows a local_ids edge line cites), and the kept records of the nodes
the tail names whose record differs from the tail's reading of them (so that a tail node that
disagrees with a kept node raises the whole cut's "records that disagree" error, naming the same ids).

The verdict is then exact: the error the whole cut raises, or the graph it decodes to as "the whole
records' graph plus what the tail adds" (`TailVerdict.nodes` and `.edges`; both empty when the tail
holds nothing, such as a partial line holding only a line break). `decoded_graph` merges statements
order-free (a node record is taken once, an edge endpoint without a record becomes a stand-in), so
the whole cut's graph is the kept graph with the tail's edges added and, for node ids without a kept
record of their own, the tail's nodes (`combined_graph`).

`tests/core/formats/test_cut_parse.py` compares this with decoding the whole cut on every sample,
every such format and many cut points, and on hostile graphs; `sweep(verify=True)` compares every
metric of every cut.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from core.errors import FormatError
from core.formats.base import Format, Rendering
from core.graph.derived import derived
from core.graph.model import ORPHAN_TYPE, Edge, Graph, Node

# The message `Graph.build` gives for node records that disagree: it names every such id of the whole
# document, which a tail read without its kept context may not see, so such a tail is left to the whole decode.
DISAGREE = "have records that disagree"

# For a node id: (index of the kept record that carries the node's own record, that node), or None.
OwnRecord = Callable[[str], "tuple[int, Node] | None"]


@dataclass(frozen=True)
class TailVerdict:
    """What the tail alone says: the error the whole cut raises, or what it adds to the whole records' graph."""

    error: str = ""
    whole_records_only: bool = False
    nodes: tuple[Node, ...] = ()  # nodes of ids that have no kept record of their own (a stand-in or new)
    edges: tuple[Edge, ...] = ()  # the tail's edges

    @property
    def adds_units(self) -> bool:
        return bool(self.nodes or self.edges)


def tail_document(format_: Format, rendering: Rendering, kept: int, records_end: int, document: str,
                  context: Iterable[int] = (), with_tail: bool = True) -> str | None:
    """The preamble, the whole records as blank lines (context records as they are), then the tail.

    `records_end` is where the cut's `kept` whole records end in `document` (without a closing); None
    when the format has no tail_start or the tail would begin inside a line.
    """
    if format_.tail_start is None or not document.startswith(rendering.preamble):
        return None
    start = format_.tail_start(rendering, kept, records_end)
    preamble = len(rendering.preamble)
    if not preamble <= start <= records_end <= len(document):
        return None
    if start and document[start - 1] != "\n" and not document.startswith("\n", start):
        return None  # the tail would begin inside a line (a whole record's line is not ended yet)
    tail = document[start:] if with_tail else ""
    breaks = _blank(format_.line_breaks)
    chosen = sorted(set(context))
    if not chosen:
        return rendering.preamble + breaks(document, preamble, start) + tail
    if start != records_end:
        return None  # context is placed record by record, so the tail must begin at a record's start
    parts, position = [rendering.preamble], preamble
    records = rendering.records
    ends = _record_starts(rendering, chosen)
    for index in chosen:
        begin = ends[index]
        parts.append(breaks(document, position, begin))
        parts.append(records[index].text)
        position = begin + len(records[index].text)
    parts.append(breaks(document, position, start))
    parts.append(tail)
    return "".join(parts)


def _blank(line_breaks: str) -> Callable[[str, int, int], str]:
    """document[start:end] as blank lines: its line break characters only, in order."""
    if line_breaks == "\n":
        return lambda text, start, end: "\n" * text.count("\n", start, end)
    other = re.compile(f"[^{re.escape(line_breaks)}]+")
    return lambda text, start, end: other.sub("", text[start:end])


def _record_starts(rendering: Rendering, indices: list[int]) -> dict[int, int]:
    """Offset in the document where each chosen record begins."""
    def build() -> np.ndarray:
        lengths = np.fromiter((len(record.text) for record in rendering.records), dtype=np.int64,
                              count=len(rendering.records))
        return len(rendering.preamble) + np.concatenate(([0], np.cumsum(lengths)))

    starts = derived(rendering, "record starts", build)
    return {index: int(starts[index]) for index in indices}


def tail_lines(format_: Format, rendering: Rendering, kept: int, records_end: int, document: str,
               context: Iterable[int] = (), with_tail: bool = True) -> list[tuple[int, str]] | None:
    """For a decoder of numbered lines (`Format.decode_lines`): the document's lines, numbered as in the
    whole cut, that hold the preamble, the context records or the tail; the other lines are left out."""
    if format_.tail_start is None or not document.startswith(rendering.preamble):
        return None
    start = format_.tail_start(rendering, kept, records_end)
    if start != records_end or records_end > len(document):
        return None
    if start and document[start - 1] != "\n" and not document.startswith("\n", start):
        return None
    chosen = sorted(set(context))
    starts = _record_starts(rendering, chosen) if chosen else {}
    text = document if with_tail else document[:start]
    regions = [(0, len(rendering.preamble))]
    regions += [(starts[index], starts[index] + len(rendering.records[index].text)) for index in chosen]
    if with_tail:
        regions.append((start, len(text)))
    found: dict[int, str] = {}
    for low, high in regions:
        found.update(_lines_in(text, low, high))
    return sorted(found.items())


def _lines_in(text: str, low: int, high: int) -> list[tuple[int, str]]:
    """The lines of `text` (numbered from 1) that hold a character of [low, high), and an empty last line
    when the span reaches the end of the text."""
    number = text.count("\n", 0, low) + 1
    line_start = text.rfind("\n", 0, low) + 1
    lines = []
    while True:
        line_end = text.find("\n", line_start)
        line_end = len(text) if line_end < 0 else line_end
        if line_start >= high and not line_start == line_end == high == len(text):
            break
        if line_end > low or (line_start == line_end and line_start >= low):
            lines.append((number, text[line_start:line_end]))
        if line_end == len(text):
            break
        line_start, number = line_end + 1, number + 1
    return lines


def tail_verdict(format_: Format, rendering: Rendering, kept: int, records_end: int, document: str,
                 own_record: OwnRecord | None = None) -> TailVerdict | None:
    """The cut's verdict from its tail, or None when only decoding the whole cut can tell.

    `own_record(node_id)` says which kept record carries a node's own record (see OwnRecord); without
    it, a tail that decodes to units is left to the whole decode.
    """
    if format_.tail_start is None:
        return None
    start = format_.tail_start(rendering, kept, records_end)
    context: set[int] = set()
    if format_.tail_context is not None and start == records_end:
        needed = format_.tail_context(rendering, kept, document[records_end:])
        if needed is None:
            return None  # the format cannot tell this tail's reading from its context
        context = {index for index in needed if index < kept}
    first = _decoded(format_, _tail_input(format_, rendering, kept, records_end, document, context))
    if first is None or isinstance(first, str):
        return None if first is None or DISAGREE in first else TailVerdict(error=first)
    if start != records_end:  # a statement begun among the whole records: only its error is known
        return None
    baseline = _decoded(format_, _tail_input(format_, rendering, kept, records_end, document, context,
                                               with_tail=False)) if context else _EMPTY
    if not isinstance(baseline, Graph):
        return None
    if own_record is None:  # without the kept records' nodes, only a tail that adds nothing, nodes included
        return TailVerdict(whole_records_only=True) if first == baseline and not first.nodes else None
    disagreeing = set()
    for node in first.nodes:
        own = own_record(node.id)
        if own is not None and own[1] != node and own[0] not in context:
            disagreeing.add(own[0])
    found = first
    if disagreeing:  # the whole cut meets those records too: decode the tail beside them
        context |= disagreeing
        again = _decoded(format_, _tail_input(format_, rendering, kept, records_end, document, context))
        if again is None or isinstance(again, str):
            return None if again is None else TailVerdict(error=again)
        baseline = _decoded(format_, _tail_input(format_, rendering, kept, records_end, document, context,
                                                   with_tail=False))
        if not isinstance(baseline, Graph):
            return None
        found = again
    if found == baseline:
        return TailVerdict(whole_records_only=True)
    remaining = Counter(found.edges)
    remaining.subtract(baseline.edges)
    if any(count < 0 for count in remaining.values()):
        return None  # the tail took away an edge of the context: not a statement-by-statement reading
    added_edges = []
    for edge in found.edges:
        if remaining[edge] > 0:
            added_edges.append(edge)
            remaining[edge] -= 1
    added_nodes = tuple(node for node in found.nodes if own_record(node.id) is None)
    return TailVerdict(nodes=added_nodes, edges=tuple(added_edges))


_EMPTY = Graph((), ())


def _decoded(format_: Format, document: str | list[tuple[int, str]] | None) -> Graph | str | None:
    if document is None:
        return None
    try:
        if isinstance(document, list):
            return format_.decode_lines(document) if format_.decode_lines is not None else None
        return format_.decode(document)
    except FormatError as error:
        return str(error)


def _tail_input(format_: Format, rendering: Rendering, kept: int, records_end: int, document: str,
                context: Iterable[int] = (), with_tail: bool = True) -> str | list[tuple[int, str]] | None:
    """What the format's decoder reads for the tail: a padded document, or numbered lines."""
    reader = tail_lines if format_.decode_lines is not None else tail_document
    return reader(format_, rendering, kept, records_end, document, context, with_tail)


def combined_graph(whole_records: Graph, verdict: TailVerdict) -> Graph:
    """The graph the whole cut decodes to, from its whole records' decoded graph and the tail's verdict.

    A node of the whole records that is a stand-in (type "unknown", no properties) gives way to the
    tail's node of that id; any other is the node's own record, which the tail agrees with.
    """
    nodes = {node.id: node for node in whole_records.nodes}
    for node in verdict.nodes:
        known = nodes.get(node.id)
        if known is None or (known.type == ORPHAN_TYPE and not known.properties):
            nodes[node.id] = node
    return Graph.build(nodes.values(), (*whole_records.edges, *verdict.edges), missing_endpoints="create",
                       missing_type=ORPHAN_TYPE)
