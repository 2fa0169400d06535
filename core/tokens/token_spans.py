"""Where each token of a text ends, as character offsets, for showing a text token by token."""

from __future__ import annotations

from itertools import accumulate

from core.tokens.protocol import Tokenizer


def token_ends(tokenizer: Tokenizer, text: str) -> tuple[int, ...]:
    """The character offset where each token of `text` ends (the last one is `len(text)`).

    A token that ends inside a multi-byte character is merged with the next one, so every offset
    falls between characters; the offsets are strictly increasing.
    """
    if not text:
        return ()
    if tokenizer.prepare(text) != text:  # surrogates or normalization: offsets of what is really encoded
        return _clamped(token_ends(tokenizer, tokenizer.prepare(text)), len(text))
    byte_ends = accumulate(len(piece) for piece in tokenizer.token_bytes(tokenizer.encode(text)))
    character_at_byte = _character_offsets(text)
    ends: list[int] = []
    for end in byte_ends:
        character = character_at_byte.get(end)
        if character is not None and (not ends or character > ends[-1]):
            ends.append(character)
    return tuple(ends)


def _character_offsets(text: str) -> dict[int, int]:
    """UTF-8 byte offset -> character offset, for every character boundary."""
    offsets = {0: 0}
    position = 0
    for index, character in enumerate(text, start=1):
        position += len(character.encode("utf-8"))
        offsets[position] = index
    return offsets


def _clamped(ends: tuple[int, ...], length: int) -> tuple[int, ...]:
    """Offsets of a prepared text of another length, kept increasing and ending at `length`."""
    kept = [end for end in ends if end < length]
    return tuple(kept) + (length,)


WINDOW_REACH = 1 << 16  # how far from a page a forced pre-token boundary is looked for (characters)
_SEARCH = 4096


def window_bounds(tokenizer: Tokenizer, text: str, start: int, end: int) -> tuple[int, int]:
    """[low, high) around the page [start, end) whose own tokens are exactly the whole text's tokens there.

    Both ends sit where the tokenizer's pre-tokenizer must split whatever surrounds them (its forced
    boundaries, core.tokens.pretoken_boundaries), found within WINDOW_REACH of the page; where there is
    none, at the line start before and the line end after. A text with no newline (compact JSON) was
    tokenized whole for one page of colours: 10 million characters on the largest graph, a gigabyte.
    """
    low = _forced_before(tokenizer, text, start)
    high = _forced_after(tokenizer, text, end)
    if low is None:
        low = text.rfind("\n", 0, max(0, start - 1)) + 1
    if high is None:
        found = text.find("\n", end)
        high = len(text) if found < 0 else found + 1
    return low, high


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # byte offsets map back to characters one to one


def _forced_before(tokenizer: Tokenizer, text: str, position: int) -> int | None:
    """The last forced boundary at or before `position` (a character offset), or None within the reach."""
    if position <= 0:
        return 0
    reach = _SEARCH
    while True:
        begin = max(0, position - reach)
        data = _bytes(text[begin:position + 1])
        cut = len(_bytes(text[begin:position]))
        found = [int(offset) for offset in tokenizer.forced_boundaries(data) if 0 < offset <= cut]
        if found:
            return begin + len(data[:max(found)].decode("utf-8", "surrogatepass"))
        if begin == 0:
            return 0
        if reach >= WINDOW_REACH:
            return None
        reach *= 4


def _forced_after(tokenizer: Tokenizer, text: str, position: int) -> int | None:
    """The first forced boundary at or after `position`, or None within the reach."""
    if position >= len(text):
        return len(text)
    reach = _SEARCH
    while True:
        begin = max(0, position - 1)
        stop = min(len(text), position + reach)
        data = _bytes(text[begin:stop])
        cut = len(_bytes(text[begin:position]))
        found = [int(offset) for offset in tokenizer.forced_boundaries(data) if cut <= offset < len(data)]
        if found:
            return begin + len(data[:min(found)].decode("utf-8", "surrogatepass"))
        if stop == len(text):
            return len(text)
        if reach >= WINDOW_REACH:
            return None
        reach *= 4
