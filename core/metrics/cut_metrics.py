"""Metrics of one cut for one query: size, parse, what survived, and whether the query still answers.

Survival is counted on the unit keys of the whole records a cut keeps (a record cut in half by raw
slicing does not count), so it is comparable across policies. Traversal accuracy runs the query's
solver on the graph the cut's document holds and compares the answer with the gold answer from the
full graph: 1.0 when equal, 0.0 otherwise or when the document does not parse. Parse validity and
evidence completeness are reported separately, as the seed asks.

The graph the document holds comes from one of two readers, which agree by the format contract:
`decode_cut` decodes the text (the proof), `kept_cut` reads the kept unit keys as a view of the full
graph (`core.graph.kept`, the fast path; lossless formats only). A record cut of a lossless format
always parses, and holds exactly the graph of its records' units; a raw cut whose text is exactly a
record prefix holds that prefix's graph; any other raw cut (one ending inside a record) is read from
its partial last record where the format allows (`core.formats.cut_parse`), else decoded.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from core.budget.policies import Cut
from core.errors import FormatError
from core.formats.base import Format
from core.graph.kept import KeptGraph, UnitPositions
from core.graph.model import Graph
from core.queries import Query, Solution


@dataclass(frozen=True)
class DecodedCut:
    """What a cut's document holds: the graph (decoded, or the kept view), or the error that stopped it."""

    graph: Graph | KeptGraph | None
    error: str = ""

    @property
    def parse_ok(self) -> bool:
        return self.graph is not None


def decode_cut(cut: Cut, format_: Format) -> DecodedCut:
    """Decode the document (the marker line is not part of it); an empty cut does not parse."""
    if cut.empty:
        return DecodedCut(None, cut.explanation or "the cut is empty")
    try:
        return DecodedCut(format_.decode(cut.document))
    except FormatError as error:
        return DecodedCut(None, str(error))


def kept_cut(cut: Cut, format_: Format, positions: UnitPositions | None,
             prefix_text: Callable[[int], str] | None = None) -> DecodedCut | None:
    """What decoding the cut would give, read from its kept units; None when only decoding can tell.

    That is a raw cut ending inside a record, and every cut of a lossy format (its decoder does not
    give back the units' graph). `prefix_text(k)` (default: the rendering's) is the document of the
    first k records, which a raw cut must equal to be read from its units.
    """
    if cut.empty:
        return DecodedCut(None, cut.explanation or "the cut is empty")
    if not format_.lossless or cut.rendering is None or positions is None:  # positions: of a lossless rendering
        return None
    if cut.selection:  # a complete rendering of the kept units alone
        return DecodedCut(UnitPositions(positions.graph, dict.fromkeys(cut.kept_keys, 0)).kept(1))
    if cut.policy == "raw" and cut.document != (prefix_text or cut.rendering.prefix_text)(cut.records_kept):
        return None
    return DecodedCut(positions.kept(cut.records_kept))


@dataclass(frozen=True)
class CutMetrics:
    tokens: int  # exact tokens of the cut's text (document and marker line)
    grammar_tokens: int
    budgeted_tokens: int  # what counts against the budget
    bytes: int
    characters: int
    records_kept: int
    records_total: int
    parse_ok: bool
    nodes_retained: int
    edges_retained: int
    evidence_total: int
    evidence_kept: int
    evidence_survival: float  # share of the evidence keys kept (1.0 when the answer needs none)
    evidence_complete: bool
    traversal_accuracy: float
    candidate_total: int
    candidate_recall: float  # share of U_k(S) kept
    first_dropped_record: int | None  # the boundary: index of the first record not kept
    first_dropped_keys: tuple[str, ...]
    next_tokens: int | None  # budget the record policy would need for one more record
    decode_error: str
    explanation: str


def measure_cut(cut: Cut, query: Query, gold: Solution, decoded: DecodedCut, *,
                candidates: Collection[str] = frozenset(), kept: Collection[str] | None = None,
                node_and_edge_counts: tuple[int, int] | None = None) -> CutMetrics:
    """All metrics of one cut for one query.

    `kept` (the kept unit keys, any container with fast membership) and `node_and_edge_counts` may
    be given by a caller that has them precomputed (a sweep does); otherwise they come from the cut.
    """
    if kept is None:
        kept = frozenset(cut.kept_keys)
    if node_and_edge_counts is None:
        nodes = sum(1 for key in kept if key.startswith("n:"))
        node_and_edge_counts = (nodes, len(kept) - nodes)
    evidence_kept = sum(1 for key in gold.evidence if key in kept)
    accurate = answers(query, gold, decoded)
    candidates_kept = sum(1 for key in candidates if key in kept)
    return cut_metrics(cut, decoded, accurate, evidence_kept, len(gold.evidence), candidates_kept, len(candidates),
                       node_and_edge_counts)


def answers(query: Query, gold: Solution, decoded: DecodedCut) -> bool:
    """Whether the query's solver, run on what the cut holds, gives the gold answer (or one of its ties)."""
    return decoded.graph is not None and gold.accepts(query.solve(decoded.graph).answer)  # type: ignore[arg-type]


def cut_metrics(cut: Cut, decoded: DecodedCut, accurate: bool, evidence_kept: int, evidence_total: int,
                candidates_kept: int, candidate_total: int, node_and_edge_counts: tuple[int, int]) -> CutMetrics:
    """The metrics from counts a caller has already made (a sweep counts kept keys by record position)."""
    text = cut.text
    return CutMetrics(
        tokens=cut.tokens, grammar_tokens=cut.grammar_tokens, budgeted_tokens=cut.budgeted_tokens,
        bytes=len(text.encode("utf-8", "surrogatepass")), characters=len(text), records_kept=cut.records_kept,
        records_total=cut.records_total, parse_ok=decoded.parse_ok, nodes_retained=node_and_edge_counts[0],
        edges_retained=node_and_edge_counts[1], evidence_total=evidence_total, evidence_kept=evidence_kept,
        evidence_survival=evidence_kept / evidence_total if evidence_total else 1.0,
        evidence_complete=evidence_kept == evidence_total, traversal_accuracy=1.0 if accurate else 0.0,
        candidate_total=candidate_total, candidate_recall=candidates_kept / candidate_total if candidate_total else 1.0,
        first_dropped_record=cut.first_dropped, first_dropped_keys=cut.first_dropped_keys,
        next_tokens=cut.next_tokens, decode_error=decoded.error, explanation=cut.explanation)


class KeptKeys(Mapping[str, int]):
    """Membership in a record prefix without building the key set: key -> record index < kept."""

    def __init__(self, record_of_key: Mapping[str, int], kept: int) -> None:
        self._record_of_key = record_of_key
        self._kept = kept

    def __contains__(self, key: object) -> bool:
        position = self._record_of_key.get(key) if isinstance(key, str) else None
        return position is not None and position < self._kept

    def __getitem__(self, key: str) -> int:
        if key not in self:
            raise KeyError(key)
        return self._record_of_key[key]

    def __iter__(self):
        return (key for key, position in self._record_of_key.items() if position < self._kept)

    def __len__(self) -> int:
        return sum(1 for _ in self)
