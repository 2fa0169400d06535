"""A small process-wide store of finished results (sweeps, suites), least recently used out first.

Not `st.cache_data`: a cached function replays its progress bar, while a result put here was computed
by the run that showed the bar. One store per kind, shared by every session (`st.cache_resource`).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable

from cachetools import LRUCache


class ResultStore:
    def __init__(self, kept: int) -> None:
        self._entries: LRUCache = LRUCache(kept)
        self._lock = threading.Lock()  # sessions are threads, and cachetools' caches are not thread-safe

    def get(self, key: Hashable):
        """The result stored under `key` (which then counts as recently used), or None."""
        with self._lock:
            return self._entries.get(key)

    def put(self, key: Hashable, result) -> None:
        with self._lock:
            self._entries[key] = result
