"""Exact token counts of every record prefix of a rendering, for the price of about one encode.

`prefix_tokens(rendering, tokenizer)` encodes the complete rendering once. Where the tokenizer is
forced to start a new pre-token (see `core.tokens.pretoken_boundaries`), the encoding of a prefix is the
encoding of the complete text up to that point, so each prefix count is

    tokens of the complete text before the last forced boundary inside the prefix's records
    + a fresh encode of the short tail after it, with the prefix's closing (and any suffix).

(A prefix whose closing is empty can also split at the end of its records, when the complete text
is forced to split there: its count is then read off the complete encoding directly.)

Only those tails are re-encoded; they repeat (`"}`, or `"\\n    }` plus a closing), so each distinct
tail is encoded once. The result is exact: `counts[k] == len(encode_ordinary(prefix_text(k)))` for
every k, which the property tests check against direct encodes over every registered tokenizer.
The forced boundaries come through the Tokenizer protocol (`forced_boundaries`); for a tokenizer
whose pre-tokenizer was not analysed there are none and every tail starts at offset 0: still
exact, but quadratic. So is a text a normalizing tokenizer (Qwen's NFC) would change, or one holding a
byte the vocabulary has no token for: each prefix is then re-encoded at its record boundary.

A workbench keeps accountings by their rendering spec's key (`core.memory.rendering_cache`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.formats.base import Rendering
from core.tokens.protocol import Tokenizer, tokenizable


def token_byte_lengths(tokenizer: Tokenizer) -> np.ndarray:
    """Byte length of every token id (0 for ids that are not ordinary tokens)."""
    return tokenizer.token_byte_lengths()


@dataclass(frozen=True, eq=False)
class PrefixTokens:
    """A rendering with exact token counts: `counts[k]` for the document holding its first k records."""

    rendering: Rendering
    tokenizer: Tokenizer
    full_tokens: np.ndarray = field(repr=False)  # encode_ordinary(rendering.text)
    counts: np.ndarray = field(repr=False)
    record_ends: np.ndarray = field(repr=False)  # byte offset where prefix k's records end (k = 0: preamble)
    _text: bytes = field(repr=False)  # the complete text, UTF-8
    _boundaries: np.ndarray = field(repr=False)  # forced boundaries among the records (byte offsets)
    _token_ends: np.ndarray = field(repr=False)  # byte offset where each token of full_tokens ends
    _anchors: np.ndarray = field(repr=False)  # per prefix: last usable forced boundary inside its records
    _replaced: bool = field(default=False, repr=False)  # lone surrogates were replaced in _text
    # the graph and the units it was rendered from, for a policy that renders a subset again (sections)
    source: tuple | None = field(default=None, repr=False)

    @property
    def records(self) -> int:
        return len(self.rendering.records)

    @property
    def total(self) -> int:
        """Tokens of the complete rendering."""
        return len(self.full_tokens)

    @property
    def text_bytes(self) -> int:
        return len(self._text)

    def prefix_text(self, count: int) -> str:
        """`rendering.prefix_text(count)`, sliced from the encoded text (faster than joining records)."""
        if self._replaced or self.rendering.declared_counts:
            return self.rendering.prefix_text(count)
        return self._text[:int(self.record_ends[count])].decode("utf-8") + self.rendering.closings[count]

    def count(self, records: int, suffix: str = "") -> int:
        """Exact tokens of `prefix_text(records) + suffix`."""
        if not suffix:
            return int(self.counts[records])
        if self.rendering.declared_counts:  # the counts differ from the complete text's: encode the document
            return self.tokenizer.count(tokenizable(self.prefix_text(records) + suffix))
        anchor = int(self._anchors[records])
        tail = self._text[anchor:int(self.record_ends[records])].decode("utf-8")
        closing = tokenizable(self.rendering.closings[records] + suffix)
        return self._tokens_before(anchor) + self.tokenizer.count(tail + closing)

    def marginal_tokens(self) -> np.ndarray:
        """What each record adds to the document, in context: counts[k] - counts[k - 1]."""
        return np.diff(self.counts)

    def raw_prefix(self, budget: int, suffix: str = "") -> tuple[str, int, int]:
        """The first `budget` tokens of the complete text, decoded with replacement.

        Returns (text, exact tokens of text + suffix, bytes of the complete text that the text holds
        intact). The text's own count can differ from `budget` when the cut splits a character or a
        pre-token; it is measured, never assumed.
        """
        budget = max(min(budget, self.total), 0)
        end = int(self._token_ends[budget - 1]) if budget else 0
        intact = end
        while intact and intact < len(self._text) and self._text[intact] & 0xC0 == 0x80:
            intact -= 1  # the cut splits a character: it becomes U+FFFD, as in tiktoken's decode
        text = self._text[:end].decode("utf-8", errors="replace")
        anchor = self._anchor_before(min(intact, int(self.record_ends[-1])))
        tail = self._text[anchor:end].decode("utf-8", errors="replace")
        return text, self._tokens_before(anchor) + self.tokenizer.count(tail + tokenizable(suffix)), intact

    def records_within(self, intact_bytes: int) -> int:
        """How many records end within the first `intact_bytes` bytes of the complete text."""
        return max(int(np.searchsorted(self.record_ends, intact_bytes, side="right")) - 1, 0)

    @property
    def record_of_key(self) -> dict[str, int]:
        """unit key -> index of the record that carries it (the rendering's, built once)."""
        return self.rendering.record_of_key

    @property
    def kept_node_and_edge_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """For every prefix length k, how many node and how many edge units its records carry."""
        return self.rendering.kept_node_and_edge_counts

    def tokens_before_byte(self, offset: int) -> int:
        """Tokens of the complete encoding that end at or before byte `offset` (a record's token offset)."""
        return self._tokens_before(offset)

    def tokens_before_bytes(self, offsets: np.ndarray) -> np.ndarray:
        """`tokens_before_byte` of every offset at once (the placement columns' record starts)."""
        return np.searchsorted(self._token_ends, offsets, side="right").astype(np.int64)

    def _tokens_before(self, offset: int) -> int:
        return int(np.searchsorted(self._token_ends, offset, side="right"))

    def _anchor_before(self, end: int) -> int:
        """The last forced boundary with both neighbouring bytes before `end`, if the encoding splits there."""
        position = int(np.searchsorted(self._boundaries, end - 1, side="right")) - 1
        anchor = int(self._boundaries[position]) if position >= 0 else 0
        tokens = self._tokens_before(anchor)
        return anchor if anchor == 0 or (tokens and int(self._token_ends[tokens - 1]) == anchor) else 0


def prefix_tokens(rendering: Rendering, tokenizer: Tokenizer, source: tuple | None = None) -> PrefixTokens:
    """Encode the rendering once and derive the exact count of every record prefix.

    `source`, (graph, units) the rendering was made from, lets the sections policy render a subset; a
    rendering made by a sweep also carries its ordering and the ordering's inputs: (graph, units, ordering,
    inputs), whose relevance scores the selecting policies weigh.
    """
    parts, full_text, text, replaced = _encoded(rendering)
    if tokenizer.normalization and tokenizer.prepare(full_text) != full_text:
        return _reencoded_prefixes(rendering, tokenizer)
    full_tokens = tokenizer.encode_array(full_text)
    if full_text.isascii():
        lengths = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    else:
        lengths = np.fromiter((len(part.encode("utf-8")) for part in parts), dtype=np.int64, count=len(parts))
    record_ends = np.cumsum(lengths)
    token_ends = np.cumsum(token_byte_lengths(tokenizer)[full_tokens])
    if (int(token_ends[-1]) if len(token_ends) else 0) != len(text):
        # The tokens do not spell the text: the vocabulary lacks a byte and the engine drops it, as llama.cpp
        # does for some GGUF files (SmolLM2 has no token for 0x04 or 0xF1). Offsets would not line up.
        return _reencoded_prefixes(rendering, tokenizer)
    boundaries = tokenizer.forced_boundaries(text[:int(record_ends[-1])])
    anchors = _aligned(_inner_anchors(boundaries, record_ends), token_ends)
    # A prefix with nothing after its records can also split at their end, when the complete text
    # is forced to split there too (or ends there).
    index = {closing: number for number, closing in enumerate(dict.fromkeys(rendering.closings))}
    closing_ids = np.fromiter(map(index.__getitem__, rendering.closings), dtype=np.int64,
                              count=len(rendering.closings))
    open_ended = closing_ids == index.get("", -1)
    at_end = open_ended & (_members(record_ends, boundaries) | (record_ends == len(text)))
    counting = _aligned(np.where(at_end, record_ends, anchors), token_ends)
    tokens_before = np.searchsorted(token_ends, counting, side="right")
    counts = tokens_before + _tail_tokens(tokenizer, text, counting, record_ends, rendering.closings, closing_ids)
    if rendering.declared_counts:
        counts = _with_declared_counts(rendering, tokenizer, counts, counting, text, record_ends, boundaries,
                                       token_ends)
    return PrefixTokens(rendering, tokenizer, full_tokens, counts, record_ends, text, boundaries, token_ends,
                        anchors, replaced, source)


def _encoded(rendering: Rendering) -> tuple[list[str], str, bytes, bool]:
    """The rendering's parts (preamble, then each record), complete text, its UTF-8 bytes, and whether lone
    surrogates were replaced to encode them (as tiktoken counts them)."""
    parts = [rendering.preamble] + [record.text for record in rendering.records]
    full_text = "".join(parts) + rendering.closing
    try:
        return parts, full_text, full_text.encode("utf-8"), False
    except UnicodeEncodeError:
        parts = [tokenizable(part) for part in parts]
        full_text = "".join(parts) + tokenizable(rendering.closing)
        return parts, full_text, full_text.encode("utf-8"), True


def _with_declared_counts(rendering: Rendering, tokenizer: Tokenizer, counts: np.ndarray, counting: np.ndarray,
                          text: bytes, record_ends: np.ndarray, boundaries: np.ndarray,
                          token_ends: np.ndarray) -> np.ndarray:
    """Counts of the prefixes whose declared counts (`Rendering.declared_counts`) are their own, not the whole's.

    Each count's digits sit between two forced pre-token boundaries of the complete text (TOON's `[` and `]`):
    a prefix that counted the complete text's tokens past that window trades the window's tokens for those of
    the window with its own number, encoded once per number. A prefix whose tail reaches into the window (its
    records end just after the header), or a tokenizer with no boundaries there, is encoded whole.
    """
    counts = counts.copy()
    kept = len(rendering.records)
    direct = np.zeros(kept + 1, dtype=bool)
    for part, start, end, kind in rendering.declared_counts:
        part_start = 0 if part < 0 else int(record_ends[part])
        part_text = rendering.preamble if part < 0 else rendering.records[part].text
        digits_start = part_start + len(part_text[:start].encode("utf-8"))
        digits_end = part_start + len(part_text[:end].encode("utf-8"))
        before = [b for b in boundaries[:np.searchsorted(boundaries, digits_start, side="right")][::-1][:8].tolist()
                  if _token_end(token_ends, b)]
        after = [b for b in boundaries[np.searchsorted(boundaries, digits_end):][:8].tolist()
                 if _token_end(token_ends, b)]
        window = (before[0], after[0]) if before and after else None
        old_tokens = 0
        if window is not None:
            old_tokens = int(np.searchsorted(token_ends, window[1], side="right")
                             - np.searchsorted(token_ends, window[0], side="right"))
        whole = rendering.declared_count(kind, kept)
        encoded: dict[int, int] = {}
        for count in range(part + 1, kept + 1):
            number = rendering.declared_count(kind, count)
            if number == whole or direct[count]:
                continue
            if window is None or int(counting[count]) < window[1]:
                direct[count] = True
                continue
            if number not in encoded:
                piece = (text[window[0]:digits_start] + str(number).encode() + text[digits_end:window[1]])
                encoded[number] = tokenizer.count(piece.decode("utf-8")) - old_tokens
            counts[count] += encoded[number]
    for count in np.flatnonzero(direct).tolist():
        counts[count] = tokenizer.count(tokenizable(rendering.prefix_text(count)))
    return counts


def _token_end(token_ends: np.ndarray, offset: int) -> bool:
    """Whether the complete encoding has a token ending at byte `offset`."""
    position = int(np.searchsorted(token_ends, offset))
    return position < len(token_ends) and int(token_ends[position]) == offset


def _reencoded_prefixes(rendering: Rendering, tokenizer: Tokenizer) -> PrefixTokens:
    """Exact counts by encoding every prefix, for text the tokenizer normalizes (rare: decomposed accents).

    The stored text is the normalized complete text, so raw cuts take the tokens the model reads;
    with no boundaries every tail starts at 0, which `count` and `raw_prefix` then encode whole.
    """
    texts = [tokenizer.prepare(rendering.preamble + "".join(record.text for record in rendering.records[:count]))
             for count in range(len(rendering.records) + 1)]
    text = tokenizer.prepare(rendering.text).encode("utf-8")
    full_tokens = tokenizer.encode_array(rendering.text)
    record_ends = np.fromiter((len(prefix.encode("utf-8")) for prefix in texts), dtype=np.int64, count=len(texts))
    counts = np.fromiter((tokenizer.count(rendering.prefix_text(count)) for count in range(len(texts))),
                         dtype=np.int64, count=len(texts))
    token_ends = np.cumsum(token_byte_lengths(tokenizer)[full_tokens])
    return PrefixTokens(rendering, tokenizer, full_tokens, counts, record_ends, text, np.empty(0, dtype=np.int64),
                        token_ends, np.zeros(len(texts), dtype=np.int64), True)


def _members(values: np.ndarray, sorted_items: np.ndarray) -> np.ndarray:
    """Which values occur in the sorted array."""
    if not len(sorted_items):
        return np.zeros(len(values), dtype=bool)
    position = np.minimum(np.searchsorted(sorted_items, values), len(sorted_items) - 1)
    return sorted_items[position] == values


def _tail_tokens(tokenizer: Tokenizer, text: bytes, anchors: np.ndarray, ends: np.ndarray,
                 closings: tuple[str, ...], closing_ids: np.ndarray) -> np.ndarray:
    """Tokens of each prefix's tail `text[anchor:end] + closing`, encoding each distinct tail once.

    Tails of up to 16 bytes (nearly all) are told apart exactly by packing their bytes into two
    64-bit words; longer ones are compared as bytes.
    """
    lengths = ends - anchors
    data = np.frombuffer(text or b"\0", dtype=np.uint8)  # one byte to index into when the text is empty
    positions = ends[:, None] - _WINDOW + np.arange(_WINDOW)[None, :]
    window = np.where(positions >= anchors[:, None], data[np.clip(positions, 0, len(data) - 1)], 0)
    packed = np.ascontiguousarray(window.astype(np.uint8)).view(np.uint64)
    keys = np.column_stack([packed, lengths.astype(np.uint64) | (closing_ids.astype(np.uint64) << np.uint64(8))])
    short = lengths <= _WINDOW
    counts = np.empty(len(ends), dtype=np.int64)
    rows = np.flatnonzero(short)
    if len(rows):
        first, inverse = _groups(keys[rows])
        tails = [tokenizer.count(text[anchors[row]:ends[row]].decode("utf-8") + tokenizable(closings[row]))
                 for row in rows[first].tolist()]
        counts[rows] = np.array(tails, dtype=np.int64)[inverse]
    seen: dict[tuple[bytes, str], int] = {}
    for row in np.flatnonzero(~short).tolist():
        key = (text[anchors[row]:ends[row]], closings[row])
        if key not in seen:
            seen[key] = tokenizer.count(key[0].decode("utf-8") + tokenizable(key[1]))
        counts[row] = seen[key]
    return counts


_WINDOW = 16  # bytes of a tail packed into two 64-bit words


def _groups(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows of equal keys: the first row of each group, and each row's group number."""
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    starts = np.concatenate(([True], np.any(ordered[1:] != ordered[:-1], axis=1)))
    inverse = np.empty(len(keys), dtype=np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return order[starts], inverse


def _inner_anchors(boundaries: np.ndarray, record_ends: np.ndarray) -> np.ndarray:
    """Per prefix, the last forced boundary with both neighbouring bytes inside its records (else 0)."""
    if not len(boundaries):
        return np.zeros(len(record_ends), dtype=np.int64)
    position = np.searchsorted(boundaries, record_ends - 1, side="right") - 1
    return np.where(position >= 0, boundaries[np.maximum(position, 0)], 0)


def _aligned(anchors: np.ndarray, token_ends: np.ndarray) -> np.ndarray:
    """Safety net: an anchor must also be a token boundary of the complete encoding, else use 0."""
    if not len(token_ends):
        return np.zeros_like(anchors)
    before = np.searchsorted(token_ends, anchors, side="right")
    return np.where((anchors == 0) | (token_ends[np.maximum(before - 1, 0)] == anchors), anchors, 0)
