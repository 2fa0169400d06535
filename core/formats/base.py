"""The rendering model: a format turns Units into preamble + Records + closing, and decodes text back."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, TypeVar, cast

import numpy as np

from core.graph.derived import derived
from core.graph.model import Graph
from core.graph.units import Unit

AtomKind = Literal["node_id", "node_type", "relation", "property_key", "property_value"]
ATOM_KINDS: tuple[AtomKind, ...] = ("node_id", "node_type", "relation", "property_key", "property_value")


class Atom(NamedTuple):
    """A span [start, end) of a record's text that holds one graph value, as written (escaped)."""

    start: int
    end: int
    kind: AtomKind


Span = tuple[int, int, AtomKind]  # an Atom's fields as a plain tuple: how a Record stores it


class Record(NamedTuple):
    """One piece of a document, with the separator that joins it to the previous record.

    Truncation keeps or drops whole records; `unit_keys` says which units the record carries.
    A named tuple holding plain tuples, not a dataclass holding Atoms: a 2,000-service graph's
    memos keep about 100,000 records, and the garbage collector stops tracking a plain tuple of
    numbers and strings, but walks every object (dataclass, named tuple) on each full collection:
    Atoms were half a rendering's collector time. `atoms` makes the Atoms when asked.
    """

    text: str
    unit_keys: tuple[str, ...]
    spans: tuple[Span, ...] = ()

    @property
    def atoms(self) -> tuple[Atom, ...]:
        return tuple(map(Atom._make, self.spans))


@dataclass(frozen=True)
class Rendering:
    """preamble + records + closing. `closings[k]` ends a valid document holding the first k records."""

    format_name: str
    preamble: str
    records: tuple[Record, ...]
    closings: tuple[str, ...]
    # For a format whose section headers declare how many units follow (TOON's `[N]`): each entry
    # (part, start, end, kind) says that characters [start, end) of the preamble (part -1) or of record
    # `part` are the decimal count of the units of that kind ("n" nodes, "e" edges) the document holds.
    # The records are written with the counts of the whole rendering; `prefix_text(k)` writes each
    # header it keeps with the counts of its own k records (core.tokens.prefix_tokens counts them so).
    declared_counts: tuple[tuple[int, int, int, str], ...] = ()

    def __post_init__(self) -> None:
        if len(self.closings) != len(self.records) + 1:
            raise ValueError("a rendering needs one closing per possible prefix length")

    def prefix_text(self, count: int) -> str:
        """The valid document made of the preamble, the first `count` records and their closing."""
        if self.declared_counts:
            return "".join(self.prefix_parts(count)) + self.closings[count]
        return self.preamble + "".join(record.text for record in self.records[:count]) + self.closings[count]

    def prefix_parts(self, count: int) -> list[str]:
        """The preamble and the first `count` records' texts, each declared count written for `count`."""
        parts = [self.preamble] + [record.text for record in self.records[:count]]
        for part, start, end, kind in self.declared_counts:
            if part < count:
                text = parts[part + 1]
                parts[part + 1] = text[:start] + str(self.declared_count(kind, count)) + text[end:]
        return parts

    def declared_count(self, kind: str, count: int) -> int:
        """How many units of `kind` ("n" or "e") the first `count` records carry."""
        nodes, edges = self.kept_node_and_edge_counts
        return int((nodes if kind == "n" else edges)[count])

    @property
    def text(self) -> str:
        return self.prefix_text(len(self.records))

    @property
    def closing(self) -> str:
        return self.closings[-1]

    @property
    def record_of_key(self) -> dict[str, int]:
        """unit key -> index of the record that carries it (built once per rendering)."""
        return derived(self, "record of key", lambda: {key: index for index, record in enumerate(self.records)
                                                       for key in record.unit_keys})

    @property
    def kept_node_and_edge_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """For every prefix length k, how many node and how many edge units its records carry (built once)."""
        return derived(self, "kept node and edge counts", self._kept_node_and_edge_counts)

    def _kept_node_and_edge_counts(self) -> tuple[np.ndarray, np.ndarray]:
        # Unit keys start with "n:" or "e:"; most records carry one unit, read without a generator.
        keys = [record.unit_keys for record in self.records]
        nodes = [(unit_keys[0][0] == "n") if len(unit_keys) == 1 else sum(key[0] == "n" for key in unit_keys)
                 for unit_keys in keys]
        edges = [len(unit_keys) - count for unit_keys, count in zip(keys, nodes)]
        return (np.concatenate(([0], np.cumsum(nodes, dtype=np.int64))),
                np.concatenate(([0], np.cumsum(edges, dtype=np.int64))))


def without_closing(format_name: str, preamble: str, records: Sequence[Record]) -> Rendering:
    """A rendering whose every prefix is already a complete document (line formats)."""
    return Rendering(format_name, preamble, tuple(records), ("",) * (len(records) + 1))


class RecordText:
    """Builds one record's text while noting where its atoms are."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._spans: list[Span] = []
        self._length = 0

    def add(self, text: str, kind: AtomKind | None = None) -> RecordText:
        if kind is not None and text:
            self._spans.append((self._length, self._length + len(text), kind))
        self._parts.append(text)
        self._length += len(text)
        return self

    def add_around(self, before: str, text: str, after: str, kind: AtomKind | None) -> RecordText:
        """`before + text + after` in one step, the atom (when `kind` is given) spanning `text`: the
        JSON formats write each value between its label and its quotes, hundreds of thousands of times."""
        start = self._length + len(before)
        end = start + len(text)
        if kind is not None and text:
            self._spans.append((start, end, kind))
        self._parts.append(f"{before}{text}{after}")
        self._length = end + len(after)
        return self

    def add_piece(self, piece: tuple[str, tuple[Span, ...]]) -> RecordText:
        """Text built before by `piece()`, with its atoms: as if its `add` calls were made here."""
        text, spans = piece
        if spans:
            offset = self._length
            self._spans.extend([(start + offset, end + offset, kind) for start, end, kind in spans])
        self._parts.append(text)
        self._length += len(text)
        return self

    def piece(self) -> tuple[str, tuple[Span, ...]]:
        """The text so far and its atoms, to be added to other records (`add_piece`)."""
        return "".join(self._parts), tuple(self._spans)

    def build(self, *unit_keys: str) -> Record:
        return Record("".join(self._parts), unit_keys, tuple(self._spans))


MEMOS_KEPT = 2  # a sweep renders one format in every ordering and layout before the next format
# Beyond those two, a graph's older memos stay while its memos together hold at most this many records: the
# dashboard measures every format once when a graph loads, and a page that sweeps every format (Pareto)
# then finds their records built (every format of a 2,000-service graph; three at 20,000 services).
# A memo's table (memo_table) counts as the records it holds: graphml keeps its whole document as one.
RECORDS_KEPT = 200_000
# The memos live on their graph (core.graph.derived), so they go with it: format name -> memo, least recently
# used first. An OrderedDict rather than a cachetools cache: a memo grows after it is stored, and cachetools
# weighs an entry (getsizeof) only when it is inserted.
RECORD_MEMOS = "record memos"
# One lock for every graph's memos, not one in each graph's memo: a graph sent to Ray is pickled with its memo.
_MEMO_LOCK = threading.Lock()


def _fresh_memo_lock() -> None:
    """A forked process renders (a sweep's workers, core.execution.workers): the lock another thread held at the fork
    would stay held there forever."""
    global _MEMO_LOCK
    _MEMO_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_fresh_memo_lock)


# What each memo weighed when it was last weighed, until it is fetched again (and may grow): weighing every memo
# each time a format starts walked every record of every format, 0.8 of the 3.4 s that rendering the 39 formats
# of a 2,000-service graph took.
RECORD_WEIGHTS = "record memo weights"


def _memos(graph: Graph) -> OrderedDict[str, dict[Hashable, Record]]:
    return derived(graph, RECORD_MEMOS, OrderedDict)


def _weights(graph: Graph) -> dict[str, int]:
    return derived(graph, RECORD_WEIGHTS, dict)


def record_memo(graph: Graph, format_name: str) -> dict[Hashable, Record]:
    """Records of one graph in one format, shared by every ordering and layout that renders it.

    A record that depends only on its unit (and on what the format writes before it, such as a
    leading line break) is escaped and built once, then reused: the orderings and layouts of a
    sweep render the same units in other orders. The key says what the record depends on; the
    graph keeps the memos of its most recent formats only (see RECORDS_KEPT), and lets them go with it.
    """
    memos, weights = _memos(graph), _weights(graph)
    with _MEMO_LOCK:
        weights.pop(format_name, None)  # it may grow now
        memo = memos.get(format_name)
        if memo is None:
            memo = memos[format_name] = {}
            _forget_oldest(memos, weights)
        memos.move_to_end(format_name)
        return memo


def forget_records(graph: Graph, format_name: str | None = None) -> int:
    """Drop the memo of `graph` in `format_name` (or in every format); the number of records let go.

    For one-off work on a large graph (measuring every format's complete text once), or a one-off graph kept
    after its use (an edit in a stability result): the records of a format no page shows would otherwise stay
    with the graph until two newer memos push them out (hundreds of MB on the largest graphs the limits accept).
    `Workbench.forget` is the front door to it.
    """
    memos, weights = _memos(graph), _weights(graph)
    with _MEMO_LOCK:
        names = [name for name in memos if format_name is None or name == format_name]
        for name in names:
            weights.pop(name, None)
        return sum(_weight(memos.pop(name)) for name in names)


def memos_held(graph: Graph) -> dict[str, int]:
    """Records held per format in the graph's memos (for measuring what the memos cost)."""
    memos = _memos(graph)
    with _MEMO_LOCK:
        return {format_name: _weight(memo) for format_name, memo in memos.items()}


def _forget_oldest(memos: OrderedDict[str, dict[Hashable, Record]], weights: dict[str, int]) -> None:
    """Drop the least recently used memos beyond the two newest while the records kept exceed RECORDS_KEPT."""
    if len(memos) <= MEMOS_KEPT:
        return  # nothing could go: weighing the memos walks every record they hold (0.2 s on the largest graph)
    newest = next(reversed(memos))  # the memo just made, about to be filled: weighed when it is no longer newest
    for name, memo in memos.items():
        if name not in weights and name != newest:
            weights[name] = _weight(memo)
    held = sum(weights[name] for name in memos if name != newest)
    while len(memos) > MEMOS_KEPT and held > RECORDS_KEPT:
        name, _ = memos.popitem(last=False)
        held -= weights.pop(name)


def _weight(memo: dict[Hashable, Record]) -> int:
    """The records a memo holds: its entries, plus what each of its tables holds."""
    # A snapshot: another thread may be adding records to this memo while it is weighed (two sessions, or two
    # formats rendered at once); iterating the live dict would raise "dictionary changed size during iteration".
    entries = list(memo.items())
    return len(entries) + sum(_table_size(value) for key, value in entries if _is_table_key(key))


def _is_table_key(key: Hashable) -> bool:
    return isinstance(key, str) and not key.startswith(("n:", "e:"))


def _table_size(value: object) -> int:
    if isinstance(value, tuple):
        return sum(_table_size(part) for part in value)
    return len(value) if isinstance(value, (dict, list, set, frozenset)) else 0


T = TypeVar("T")


def memo_table(memo: dict[Hashable, Record], name: str, build: Callable[[], T]) -> T:
    """A per-graph table a format's records depend on (codes, numbering), kept in the records' memo
    under a string key no unit key takes (unit keys start with `n:` or `e:`, record keys are tuples)."""
    if name not in memo:
        memo[name] = cast(Record, build())
    return cast(T, memo[name])


def nodes_then_edges(units: Sequence[Unit]) -> list[Unit]:
    """Stable partition for formats that keep nodes and edges in separate sections."""
    return [unit for unit in units if unit.is_node] + [unit for unit in units if not unit.is_node]


@dataclass(frozen=True)
class Format:
    """A registered graph text format.

    render(graph, units) -> Rendering writes the given units in the given order (a format with
    separate node and edge sections keeps the order within each); the graph supplies what a preamble
    may need (a dictionary, a schema). decode(text) -> Graph raises FormatError with a line or offset.
    """

    name: str
    title: str
    lossless: bool
    grammar: str
    render: Callable[[Graph, Sequence[Unit]], Rendering] = field(repr=False)
    decode: Callable[[str], Graph] = field(repr=False)
    example: str = ""
    lost: str = ""  # for a lossy format: what it drops
    interleaves: bool = True  # False when nodes and edges sit in separate sections
    uses_hops: bool = False  # True when the text shows units' hop levels from the seeds (so seeds change it)
    # For a decoder that reads the text statement by statement after its preamble (each line or page
    # alone, blank lines skipped): tail_start(rendering, kept, records_end) is the offset in a raw cut's
    # document from which its last, partial statement reads; what precedes it is whole statements that
    # parse. A raw cut then parses exactly as the preamble, blank lines in place of the whole statements
    # and that tail do (`core.formats.cut_parse`). None: only decoding the whole cut tells.
    tail_start: Callable[[Rendering, int, int], int] | None = field(default=None, repr=False)
    # With tail_start: tail_context(rendering, kept, tail) names the whole records (indices below kept) a
    # tail beginning at a record's start needs in place to read as in the whole cut (a section header,
    # the rows its local ids cite); the other whole records become blank lines (`core.formats.cut_parse`).
    # It returns None for a tail whose reading it cannot vouch for (only the whole decode tells).
    tail_context: Callable[[Rendering, int, str], Iterable[int] | None] | None = field(default=None, repr=False)
    # For a decoder whose blank lines are not neutral (a Markdown table ends at one) but whose lines read
    # alone: decode_lines([(line number, line), ...]) decodes the given lines as if the others were not
    # there; cut_parse then hands it the preamble's, the context's and the tail's lines only.
    decode_lines: Callable[[list[tuple[int, str]]], Graph] | None = field(default=None, repr=False)
    # The characters the decoder counts as line breaks (YAML also counts U+2028 and others): the blank
    # lines that stand for whole records keep every one of them, so error positions stay the same.
    line_breaks: str = "\n"
    # For a lossy format: what its decoder gives back of one unit (a Node or an Edge), so that a record
    # prefix's decoded graph is read from its kept units as for a lossless one (`core.graph.kept.image_positions`).
    image: Callable[[Unit], object] | None = field(default=None, repr=False)


def edges_header_context(rendering: Rendering, kept: int, tail: str) -> list[int]:
    """tail_context of a format whose first edge record opens the edge section with its header (Markdown
    tables, GraphRAG tables): a tail among the edge rows needs that record above it."""
    first = derived(rendering, "first edge record", lambda: next(
        (index for index, record in enumerate(rendering.records) if record.unit_keys[0].startswith("e:")),
        len(rendering.records)))
    return [first] if first < kept else []


def after_whole_records(rendering: Rendering, kept: int, records_end: int) -> int:
    """tail_start of a format whose every record is whole statements (lines or pages) of its own."""
    return records_end
