"""The one Tokenizer protocol: what every tokenizer the lab counts with offers, whatever engine runs it.

A tokenizer encodes *ordinary* text: special-token text such as `<|endoftext|>`, `<s>` or `[INST]`
in a label is counted as the characters it is, never parsed as a control token. `prepare` is the
text the engine actually encodes (lone surrogates become U+FFFD; a tokenizer that normalizes, like
Qwen's NFC, normalizes here), so byte offsets of the prepared text line up with `token_bytes`.
The engines live in `core.tokens.tokenizers`; the registry entries in `core.tokens.TOKENIZERS`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Literal, Protocol, runtime_checkable

import numpy as np

NormalForm = Literal["NFC", "NFD", "NFKC", "NFKD"]


@runtime_checkable
class Tokenizer(Protocol):
    """Exact token counts for one vocabulary, loaded offline from a package's files."""

    # Read-only properties rather than plain attributes, so that frozen dataclasses satisfy the protocol.
    @property
    def name(self) -> str: ...  # registry name, e.g. "llama3"

    @property
    def family(self) -> str: ...  # what it is, e.g. "Llama 3 byte-level BPE"

    @property
    def source(self) -> str: ...  # the package and file its vocabulary comes from

    @property
    def licence(self) -> str: ...  # the vocabulary's licence (and the package's, when they differ)

    @property
    def approximate(self) -> bool: ...  # True when the count only estimates the model's own tokenizer

    @property
    def normalization(self) -> NormalForm | None: ...  # Unicode normal form applied before encoding ("NFC"), or None

    def encode(self, text: str) -> list[int]: ...

    def encode_array(self, text: str) -> np.ndarray: ...

    def count(self, text: str) -> int: ...

    def decode(self, tokens: Sequence[int]) -> str: ...

    def token_bytes(self, tokens: Sequence[int]) -> list[bytes]: ...

    def token_byte_lengths(self) -> np.ndarray: ...

    def forced_boundaries(self, data: bytes) -> np.ndarray: ...

    def prepare(self, text: str) -> str: ...

    @property
    def version(self) -> str: ...

    def __hash__(self) -> int: ...  # tokenizers key the lru_cache'd measurements


def tokenizable(text: str) -> str:
    """The text an engine actually encodes: lone surrogates become U+FFFD, one character each."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def prepared(text: str, normalization: NormalForm | None) -> str:
    """`tokenizable(text)`, then normalized when the tokenizer normalizes (a no-op on ASCII)."""
    text = tokenizable(text)
    if normalization and not text.isascii() and not unicodedata.is_normalized(normalization, text):
        return unicodedata.normalize(normalization, text)
    return text
