"""The cache of accounted renderings: a `SizedCache` bounded by the bytes each rendering and its token arrays hold."""

from __future__ import annotations

from core.memory.held_bytes import accounting_bytes
from core.memory.sized_cache import SizedCache
from core.tokens.prefix_tokens import PrefixTokens

RenderingCache = SizedCache[PrefixTokens]
# What a workbench keeps by default: renderings with every token and offset array, so several times their text.
DEFAULT_CACHE_BYTES = 200_000_000


def rendering_cache(max_bytes: int, keep_seconds: float = 0.0) -> RenderingCache:
    return SizedCache(max_bytes, accounting_bytes, keep_seconds=keep_seconds)
