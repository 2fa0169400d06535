"""A byte-level BPE whose pre-tokenizer tiktoken cannot express, run by Hugging Face `tokenizers`.

DeepSeek splits text in stages (digit groups, then CJK runs, then a regex), which is not one
regex, so its shipped `tokenizer.json` runs in `tokenizers`. The file's added tokens are removed
before loading: they would be cut out of user text (DeepSeek marks `<｜User｜>` and others
"not special", so even `encode_special_tokens` parses them), and a label is ordinary text here.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import tokenizers

from core.tokens.piece_count import count_in_pieces, encode_in_pieces
from core.tokens.pretoken_boundaries import forced_boundaries, line_feed_rule_applies, rules_apply
from core.tokens.protocol import NormalForm, prepared

_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def byte_level_alphabet() -> dict[str, int]:
    """The byte-level BPE alphabet (GPT-2's): printable character -> the byte it stands for."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    characters = printable[:]
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            characters.append(256 + extra)
            extra += 1
    return {chr(character): byte for byte, character in zip(printable, characters)}


@dataclass(frozen=True)
class HuggingFaceTokenizer:
    """A byte-level BPE `tokenizer.json` without its added tokens, in `tokenizers`."""

    name: str
    family: str
    source: str
    licence: str
    load_json: Callable[[], bytes] = field(repr=False, compare=False)
    normalization: NormalForm | None = None
    approximate: bool = False
    # Ids from here on stand for bytes the vocabulary has no token for (a GGUF file's, gguf_file): BPE keeps each
    # apart, so no merge crosses it, and the ids are dropped from what is encoded, as llama.cpp does.
    dropped_from: int | None = None

    @cached_property
    def _definition(self) -> dict:
        return json.loads(self.load_json())

    @cached_property
    def engine(self) -> tokenizers.Tokenizer:
        with _LOCK:
            definition = dict(self._definition, added_tokens=[])
            return tokenizers.Tokenizer.from_str(json.dumps(definition))

    @cached_property
    def pre_tokenizer(self) -> str:
        """The pre-tokenizer's definition, canonical JSON: what the boundary rules are checked against."""
        return json.dumps(self._definition["pre_tokenizer"], sort_keys=True, ensure_ascii=False)

    @cached_property
    def _pieces(self) -> list[bytes]:
        alphabet = byte_level_alphabet()
        pieces = [b""] * (max(self._definition["model"]["vocab"].values()) + 1)
        for text, token in self._definition["model"]["vocab"].items():
            if all(character in alphabet for character in text):  # the rest are specials BPE never emits
                pieces[token] = bytes(alphabet[character] for character in text)
        return pieces

    def prepare(self, text: str) -> str:
        return prepared(text, self.normalization)

    def encode(self, text: str) -> list[int]:
        ids = self.engine.encode(self.prepare(text), add_special_tokens=False).ids
        if self.dropped_from is None:
            return ids
        return [token for token in ids if token < self.dropped_from]

    def encode_array(self, text: str) -> np.ndarray:
        """Encoded in pieces of about 1 MB (core.tokens.piece_count says why)."""
        return encode_in_pieces(text, lambda piece: np.array(self.encode(piece), dtype=np.int64),
                                self.forced_boundaries)

    def count(self, text: str) -> int:
        """Exact, counted in pieces of about 1 MB (core.tokens.piece_count says why)."""
        return count_in_pieces(text, lambda piece: len(self.encode(piece)), self.forced_boundaries)

    def decode(self, tokens: Sequence[int]) -> str:
        """Token ids back to text; a cut through a multi-byte character becomes U+FFFD."""
        return b"".join(self.token_bytes(tokens)).decode("utf-8", errors="replace")

    def token_bytes(self, tokens: Sequence[int]) -> list[bytes]:
        pieces = self._pieces
        return [pieces[token] for token in tokens]

    def token_byte_lengths(self) -> np.ndarray:
        return self._byte_lengths

    @cached_property
    def _byte_lengths(self) -> np.ndarray:
        return np.fromiter(map(len, self._pieces), dtype=np.int64, count=len(self._pieces))

    def forced_boundaries(self, data: bytes) -> np.ndarray:
        if rules_apply(self.pre_tokenizer):
            return forced_boundaries(data, line_feed_rule_applies(self.pre_tokenizer))
        return np.empty(0, dtype=np.int64)

    @property
    def version(self) -> str:
        return f"tokenizers {tokenizers.__version__}"
