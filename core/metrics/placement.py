"""Where a cut leaves things: dangling edges, the position of the kept evidence, the marker line's tokens.

- `dangling_edges`: kept edges whose endpoint node was cut (LightRAG PR #3960: relations left
  pointing at truncated entities). Counted on unit keys; it is nonzero only where a format writes
  node records apart from edge records (a line format with one record per edge and no node
  records renders no node units at all, so its edges dangle by construction and are counted too).
- evidence position: the token offset at which each kept evidence unit's record starts, as a
  share of the context's tokens (0 = the first token, near 1 = the end): first, median and last,
  and the spread between the first and the last (multi-hop accuracy drops with evidence in the
  middle and with distance between the pieces, arXiv 2412.10079). A record's offset is the number
  of tokens of the complete encoding that end before it starts: exact for record and raw cuts,
  which are prefixes of that encoding; a sections cut is measured on its own rendering.
- `marker_tokens`: what the "[k of N … shown]" line adds to the context (0 without one).
- `cut_offset`: where the cut line falls in the complete text, in characters (the Contexts page draws it).

`placement(cut, accounting, evidence)` gives all of them for one cut; the per-rendering arrays
(record offsets, edge endpoints) are computed once per accounting and reused for every budget.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from core.budget.policies import Cut
from core.formats.base import Rendering
from core.graph.derived import derived
from core.graph.kept import NEVER, graph_keys, positions_for
from core.metrics.cut_metrics import KeptKeys
from core.metrics.own_accounting import own_accounting
from core.tokens.prefix_tokens import PrefixTokens

# Safe on any key: a fixed-length escape.
_UNESCAPE = re.compile(r"\\(p|\\)")


def edge_key_endpoints(key: str) -> tuple[str, str]:
    """(source id, target id) of an edge key `e:<source>|<relation>|<target>[|n]`."""
    parts = key[2:].split("|")
    return _unescaped(parts[0]), _unescaped(parts[2])


def _unescaped(part: str) -> str:
    return _UNESCAPE.sub(lambda match: "|" if match.group(1) == "p" else "\\", part) if "\\" in part else part


def _endpoint_keys(key: str) -> tuple[str, str]:
    """Node keys of an edge key's endpoints, parsed on each call: only a rendering without its graph asks (a sweep's
    layouts come from the graph's arrays), once per rendering (its layout is kept on the accounting)."""
    source, target = edge_key_endpoints(key)
    return f"n:{source}", f"n:{target}"


def _median(ordered: Sequence[float]) -> float:
    """np.median of an already sorted list, without its per-call overhead (same arithmetic: (a + b) / 2)."""
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


@dataclass(frozen=True)
class Placement:
    dangling_edges: int
    evidence_positions: tuple[float, ...]  # share of the context's tokens where each kept evidence unit starts
    evidence_position_first: float  # NaN when no evidence unit is kept
    evidence_position_median: float
    evidence_position_last: float
    evidence_spread: float  # last - first, as a share of the context
    evidence_spread_tokens: int  # last - first, in tokens (0 with fewer than two kept)
    marker_tokens: int


PLACEMENT_COLUMNS = ("dangling_edges", "evidence_position_first", "evidence_position_median",
                     "evidence_position_last", "evidence_spread", "evidence_spread_tokens", "marker_tokens")


@dataclass(frozen=True)
class _Layout:
    """Per rendering: each record's starting token, and per edge unit its record and its endpoints' last record."""

    record_starts: np.ndarray
    edge_records: np.ndarray
    endpoint_records: np.ndarray  # the later of the endpoints' records; the record count when one is missing
    # evidence set -> (records of its rendered keys, sorted; their starting tokens): once per query, not per cut
    evidence: dict = field(default_factory=dict, compare=False)

    def evidence_records(self, evidence: frozenset[str] | set[str],
                         record_of_key: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
        key = evidence if isinstance(evidence, frozenset) else frozenset(evidence)
        found = self.evidence.get(key)
        if found is None:
            records = np.sort(np.fromiter((record_of_key[unit] for unit in key if unit in record_of_key),
                                          dtype=np.int64))
            found = self.evidence[key] = (records, self.record_starts[records])
        return found


def _layout(accounting: PrefixTokens) -> _Layout:
    return derived(accounting, "placement layout", lambda: _built_layout(accounting))


def _built_layout(accounting: PrefixTokens) -> _Layout:
    records = accounting.rendering.records
    starts = accounting.tokens_before_bytes(np.asarray(accounting.record_ends[:len(records)]))
    edges_and_endpoints = _from_graph(accounting)
    if edges_and_endpoints is None:
        edges_and_endpoints = _from_keys(accounting.record_of_key, len(records))
    return _Layout(starts, *edges_and_endpoints)


def _from_keys(position: dict[str, int], missing: int) -> tuple[np.ndarray, np.ndarray]:
    """Per rendered edge key: its record, and the later of its endpoints' records (`missing` when one is not rendered)."""
    lookup = position.get
    edges, endpoints = [], []
    for key, record in position.items():
        if key.startswith("e:"):
            source, target = _endpoint_keys(key)
            edges.append(record)
            endpoints.append(max(lookup(source, missing), lookup(target, missing)))
    return np.array(edges, dtype=np.int64), np.array(endpoints, dtype=np.int64)


def _from_graph(accounting: PrefixTokens) -> tuple[np.ndarray, np.ndarray] | None:
    """`_from_keys` from the graph's edge endpoints (arrays shared by every rendering of the graph), in graph
    order rather than record order (only their count of dangling edges is read); None when the rendering
    carries a key the graph does not have."""
    if accounting.source is None:
        return None
    positions = positions_for(accounting.rendering, accounting.source[0], accounting.record_of_key)
    rendered = positions.edge_record != NEVER
    if int(np.count_nonzero(positions.unit_record != NEVER)) != len(accounting.record_of_key):
        return None  # a key that is not a unit of the graph
    keys = graph_keys(positions.graph)
    missing = accounting.records
    nodes = np.minimum(positions.node_record, missing)  # a node without a record: `missing`, as above
    endpoints = np.maximum(nodes[keys.sources], nodes[keys.targets])[rendered]
    return positions.edge_record[rendered], endpoints


def placement(cut: Cut, accounting: PrefixTokens, evidence: frozenset[str] | set[str]) -> Placement:
    """Dangling edges, kept-evidence positions and marker tokens of one cut of this accounted rendering."""
    if cut.empty:
        return Placement(0, (), math.nan, math.nan, math.nan, math.nan, 0, 0)
    accounting, kept = own_accounting(cut, accounting)  # a selecting cut: its own rendering of the kept units, all kept
    marker_tokens = 0
    if cut.marker:
        document_tokens = int(accounting.counts[kept]) if cut.policy != "raw" else \
            accounting.tokenizer.count(cut.document)
        marker_tokens = cut.tokens - document_tokens
    layout = _layout(accounting)
    dangling = int(np.count_nonzero((layout.edge_records < kept) & (layout.endpoint_records >= kept)))
    # Record starts grow with the record index, so the kept evidence's offsets, in order, are a prefix.
    records, starts = layout.evidence_records(evidence, accounting.record_of_key)
    offsets = starts[:int(np.searchsorted(records, kept))]
    if not len(offsets):
        return Placement(dangling, (), math.nan, math.nan, math.nan, math.nan, 0, marker_tokens)
    shares_array = offsets / max(cut.tokens, 1)  # float64 division of whole numbers: as exact as Python's
    shares = tuple(shares_array.tolist())
    return Placement(dangling, shares, shares[0], _median(shares), shares[-1], shares[-1] - shares[0],
                     int(offsets[-1] - offsets[0]), marker_tokens)


def placement_columns(cut: Cut, accounting: PrefixTokens, evidence: frozenset[str]) -> dict[str, float | int]:
    """The sweep's columns for this cut and query's evidence."""
    figures = placement(cut, accounting, evidence)
    return {name: getattr(figures, name) for name in PLACEMENT_COLUMNS}


@dataclass(frozen=True)
class EvidenceTick:
    key: str
    offset: int  # token offset of its record in the complete rendering
    kept: bool


@dataclass(frozen=True)
class EvidenceStrip:
    """The Contexts strip: the complete rendering's length, a tick per evidence unit, and the cut line."""

    total_tokens: int
    ticks: tuple[EvidenceTick, ...]
    cut_at: int | None  # token offset where the text is cut (raw), or of the first record not kept (record);
    # None when all is kept or for sections


def evidence_strip(cut: Cut, accounting: PrefixTokens, evidence: frozenset[str]) -> EvidenceStrip:
    layout = _layout(accounting)
    position = accounting.record_of_key
    # A prefix cut keeps a key when its record is before the cut: no set of every kept key (100,000s on a large graph).
    kept = frozenset(cut.kept_keys) if cut.selection else KeptKeys(position, cut.records_kept)
    ticks = tuple(sorted((EvidenceTick(key, int(layout.record_starts[position[key]]), key in kept)
                          for key in evidence if key in position), key=lambda tick: (tick.offset, tick.key)))
    cut_at = None
    if cut.kept_tokens is not None:  # raw: its text ends inside a record, where the panel's cut line is drawn
        cut_at = cut.kept_tokens if cut.kept_tokens < accounting.total else None
    elif not cut.selection and cut.records_kept < accounting.records:
        cut_at = int(layout.record_starts[cut.records_kept])
    return EvidenceStrip(accounting.total, ticks, cut_at)


def _character_ends(full: Rendering) -> np.ndarray:
    """ends[k]: characters of the preamble and the first k records (once per rendering: a budget change on a
    240,000-record rendering summed the kept records' lengths again, about 10 ms a panel)."""
    def build() -> np.ndarray:
        lengths = np.fromiter((len(record.text) for record in full.records), dtype=np.int64, count=len(full.records))
        return np.concatenate(([len(full.preamble)], len(full.preamble) + np.cumsum(lengths)))

    return derived(full, "character ends", build)


def cut_offset(full: Rendering, result: Cut, text: str | None = None) -> int:
    """Characters of the complete text `full.text` that the cut keeps: its whole records (record policy), its
    intact prefix (raw: a cut through a character ends in U+FFFD, which is not kept), nothing for an empty
    cut, and the whole text for a sections cut (no single cut line: its units are kept or cut per section).

    `text`, when the caller holds it, is `full.text` (a raw cut is compared with it instead of a join of records)."""
    if result.empty:
        return 0
    ends = _character_ends(full)
    if result.selection:
        return int(ends[-1]) + len(full.closing)
    if result.policy == "record":
        return int(ends[result.records_kept])
    if text is not None:
        return _common_prefix_length(result.document, text)
    # The complete text only as far as the document reaches, not all of it (tens of megabytes on a large graph).
    reach = int(np.searchsorted(ends, len(result.document)))
    head = full.preamble + "".join(record.text for record in full.records[:reach])
    return _common_prefix_length(result.document, head + full.closing if reach >= len(full.records) else head)


def _common_prefix_length(document: str, text: str) -> int:
    """How many leading characters `document` shares with `text` (a binary search over C-speed startswith)."""
    if text.startswith(document):  # the common case: one pass, no copies
        return len(document)
    low, high = 0, len(document)
    while low < high:  # text starts with document[:low]; not with document[:high + 1]
        middle = (low + high + 1) // 2
        if text.startswith(document[:middle]):
            low = middle
        else:
            high = middle - 1
    return low
