"""A thread-safe least-recently-used cache bounded by the bytes its values hold (as a sizer estimates them).

For what the dashboard keeps between reruns on graphs of any size (renderings with their token counts,
their text layouts, loaded graphs): on the largest graphs the limits accept one entry is hundreds of
MB, so a count of entries bounds nothing. The newest entry is kept even when it alone is over the
bound: the page that asked for it reads it again on its next rerun, and rebuilding it on every rerun
would cost far more than holding it. For the same reason an entry read within the last `keep_seconds`
is not dropped (a page showing four large renderings must not push out the first one while it builds
the fourth, then rebuild it on the next rerun): the bound then waits until they age.

A value is built once however many threads ask for it at the same time: the others wait for that build.
Two sessions, or one session's interrupted run and the run that replaced it (a click on another page while a
large graph is rendered), otherwise built the same rendering side by side, each at half speed on the GIL.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextlib import suppress
from functools import partial
from typing import Generic, TypeVar

V = TypeVar("V")


class SizedCache(Generic[V]):
    def __init__(self, max_bytes: int, sizer: Callable[[V], int], keep_seconds: float = 0.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_bytes = max_bytes
        self.keep_seconds = keep_seconds
        self._sizer = sizer
        self._clock = clock
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._used: dict[Hashable, float] = {}  # when each entry was last put or read
        self._held = 0
        self._lock = threading.Lock()  # sessions are threads
        self._building: dict[Hashable, threading.Event] = {}  # keys being built now, set when their build ends

    def get(self, key: Hashable) -> V | None:
        """The value under `key` (now the most recently used), or None."""
        with self._lock:
            return self._read(key)

    def _read(self, key: Hashable) -> V | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._entries.move_to_end(key)
        self._used[key] = self._clock()
        return entry[0]

    def put(self, key: Hashable, value: V) -> None:
        """Keep `value` as the newest entry, then drop the least recently used others while over the bound."""
        size = self._sizer(value)  # outside the lock: sizing a large value walks it
        with self._lock:
            if key in self._entries:
                self._held -= self._entries.pop(key)[1]
            self._entries[key] = (value, size)
            self._used[key] = now = self._clock()
            self._held += size
            while self._held > self.max_bytes and len(self._entries) > 1:
                oldest = next(iter(self._entries))
                if now - self._used[oldest] < self.keep_seconds:
                    break  # the least recently used was read just now: so were all the others
                self._held -= self._entries.pop(oldest)[1]
                del self._used[oldest]

    def get_or_build(self, key: Hashable, build: Callable[[], V]) -> V:
        """The value under `key`, built by `build` when missing; a build of it already running is waited for
        (if that build fails, this one tries again and raises its own error)."""
        while True:
            with self._lock:
                found = self._read(key)
                if found is not None:
                    return found
                running = self._building.get(key)
                if running is None:
                    self._building[key] = finished = threading.Event()
                    break
            running.wait()
        return self._build(key, build, finished)

    def claim(self, key: Hashable) -> Callable[[Callable[[], V]], None] | None:
        """Mark `key` as being built by the caller, unless it is kept or being built (None). Returns what builds
        it: call that once, in any thread, with the build. Until then `get_or_build` of `key` waits; if the build
        fails, the waiter builds the value itself and raises its own error."""
        with self._lock:
            if key in self._entries or key in self._building:
                return None
            self._building[key] = finished = threading.Event()
        return partial(self._build_quietly, key, finished=finished)

    def _build_quietly(self, key: Hashable, build: Callable[[], V], finished: threading.Event) -> None:
        with suppress(Exception):  # a claimed build is waited for by nobody: the next asker builds it again
            self._build(key, build, finished)

    def _build(self, key: Hashable, build: Callable[[], V], finished: threading.Event) -> V:
        """Build the value of a key this thread marked as being built, keep it, and tell any waiter."""
        try:
            built = build()  # outside the lock: building takes seconds to minutes on a large graph
            self.put(key, built)
            return built
        finally:
            with self._lock:
                del self._building[key]
            finished.set()

    def building(self, key: Hashable) -> bool:
        """Whether a `get_or_build` of `key` is building it now."""
        with self._lock:
            return key in self._building

    @property
    def held_bytes(self) -> int:
        with self._lock:
            return self._held

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._used.clear()
            self._held = 0
