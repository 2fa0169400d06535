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
