"""Byte-level BPE with one regex pre-tokenizer, run by tiktoken from ranks we load ourselves.

The `tiktoken.Encoding` is built with its public constructor from a rank table read out of an
installed package, so nothing is downloaded and no private attribute or cache folder is involved.
One engine then serves OpenAI's encodings, Llama 3, Qwen and Mistral's Tekken.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import tiktoken

from core.errors import GraphContextError
from core.tokens.piece_count import count_in_pieces
from core.tokens.pretoken_boundaries import forced_boundaries, rules_apply
from core.tokens.protocol import NormalForm, prepared

_LOCK = threading.RLock()  # re-entrant: o200k_harmony loads its ranks through o200k_base's


@dataclass(frozen=True)
class TiktokenTokenizer:
    """One vocabulary in tiktoken. Ids are the vocabulary's own: rank + `id_offset` (Tekken puts its
    1,000 special tokens first, so its ordinary ids start at 1,000)."""

    name: str
    family: str
    source: str
    licence: str
    pattern: str
    load_ranks: Callable[[], dict[bytes, int]] = field(repr=False, compare=False)
    load_special_tokens: Callable[[], dict[str, int]] = field(default=dict, repr=False, compare=False)
    id_offset: int = 0
    normalization: NormalForm | None = None
    approximate: bool = False

    @cached_property
    def ranks(self) -> dict[bytes, int]:
        with _LOCK:
            return self.load_ranks()

    @cached_property
    def encoding(self) -> tiktoken.Encoding:
        try:
            return tiktoken.Encoding(self.name, pat_str=self.pattern, mergeable_ranks=self.ranks,
                                     special_tokens=self.load_special_tokens())
        except ValueError as error:  # tiktoken refuses inconsistent tables
            raise GraphContextError(f"could not build tokenizer {self.name!r}: {error}", "tokenizer files",
                                    f"reinstall the package named in its source: {self.source}") from None

    def prepare(self, text: str) -> str:
        return prepared(text, self.normalization)

    def encode_array(self, text: str) -> np.ndarray:
        # encode_to_numpy with nothing special allowed or disallowed is encode_ordinary, minus the list copy.
        tokens = self.encoding.encode_to_numpy(self.prepare(text), allowed_special=set(), disallowed_special=())
        ids = tokens.astype(np.int64)
        if self.id_offset:  # in place: a copy of 7 million ids costs a tenth of a second
            ids += self.id_offset
        return ids

    def encode(self, text: str) -> list[int]:
        tokens = self.encoding.encode_ordinary(self.prepare(text))
        return [token + self.id_offset for token in tokens] if self.id_offset else tokens

    def count(self, text: str) -> int:
        """Exact, counted in pieces of about 1 MB (core.tokens.piece_count says why)."""
        return count_in_pieces(text, self._count_whole, self.forced_boundaries)

    def _count_whole(self, text: str) -> int:
        return len(self.encoding.encode_to_numpy(self.prepare(text), allowed_special=set(), disallowed_special=()))

    def decode(self, tokens: Sequence[int]) -> str:
        """Token ids back to text; a cut through a multi-byte character becomes U+FFFD."""
        return self.encoding.decode([token - self.id_offset for token in tokens], errors="replace")

    def token_bytes(self, tokens: Sequence[int]) -> list[bytes]:
        return [self.encoding.decode_single_token_bytes(token - self.id_offset) for token in tokens]

    def token_byte_lengths(self) -> np.ndarray:
        """Byte length of every ordinary token id (0 for ids that are not ordinary tokens)."""
        return self._byte_lengths

    @cached_property
    def _byte_lengths(self) -> np.ndarray:
        ranks = self.ranks
        lengths = np.zeros(self.id_offset + max(ranks.values()) + 1, dtype=np.int64)
        lengths[np.fromiter(ranks.values(), dtype=np.int64, count=len(ranks)) + self.id_offset] = \
            np.fromiter(map(len, ranks), dtype=np.int64, count=len(ranks))
        return lengths

    def forced_boundaries(self, data: bytes) -> np.ndarray:
        """Byte offsets where the pre-tokenizer must split whatever surrounds them (none if not analysed)."""
        if rules_apply(self.pattern):
            return forced_boundaries(data)
        return np.empty(0, dtype=np.int64)

    @property
    def version(self) -> str:
        return f"tiktoken {tiktoken.__version__}"
