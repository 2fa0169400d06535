"""A rendering made and counted in a forked process while this process makes it again for its records.

Why: rendering is Python, so the threads of one process make one rendering at a time, and a large graph's first
page waits for two (the 200,000-edge graph: pretty_json renders in 0.9 s and counts in 2 s; compact_json renders
and counts in 1.6 s). Counting alone would overlap: tiktoken 0.14's `encode_to_numpy` lets go of the GIL while it
encodes (the performance page compares a design with threads alone, which uses less CPU). A forked process
starts with the graph, its units and the tokenizer already in its memory (nothing is pickled to start it), makes
the rendering, counts it, and sends back only what counting adds: the token arrays and the text's bytes
(pretty_json: 157 MB, read in 0.1-0.3 s through a file in memory, `_Channel`). Its records stay there: 240,000
of them take longer to pickle, send and unpickle than to make again here, which this process does meanwhile, in a
thread of its own. The two are joined when their texts are equal byte for byte.

Where the process fails to count or send, stays silent for RECEIVE_SECONDS, or its text differs (a tokenizer that
normalizes keeps the normalized text), the rendering is counted here instead: the same result, only later.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import tempfile
from collections.abc import Callable
from typing import IO

from core.formats.base import Rendering
from core.tokens.prefix_tokens import PrefixTokens, counted_fields, prefix_tokens, rendering_bytes
from core.tokens.protocol import Tokenizer

# How long the counts may take to arrive. The largest graph's take 2-4 s; past this the process is taken to be
# stuck and the rendering is counted here.
RECEIVE_SECONDS = 120.0


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def loaded(tokenizer: Tokenizer) -> None:
    """Load the tokenizer's tables in this process before a fork, not in the forked process: a load under way in
    another thread at the fork would leave its lock held there, forever."""
    tokenizer.token_byte_lengths()
    tokenizer.count("tables")


def accounted_in_fork(make: Callable[[], tuple[Rendering, tuple | None]], tokenizer: Tokenizer,
                      meanwhile: Callable[[Rendering], object] | None = None) -> PrefixTokens:
    """`prefix_tokens(rendering, tokenizer, source)` of `(rendering, source) = make()`, made in two processes at
    once: a process forked now makes the rendering and counts it, while this thread makes it again for its records
    (and calls `meanwhile` with it). The two are joined when their texts are equal byte for byte; otherwise (or if
    the process fails) the rendering is counted here. This thread waits for the process without holding the GIL,
    so the others run meanwhile."""
    loaded(tokenizer)
    context = multiprocessing.get_context("fork")
    channel = _Channel(context)
    process = context.Process(target=_count_and_send, args=(make, tokenizer, channel), daemon=True)
    try:
        process.start()
    except OSError:  # no process to be had (memory, a limit on processes): counted here
        started = False
    else:
        started = True
        channel.close_sending_end()
    try:
        rendering, source = make()
        if meanwhile is not None:
            meanwhile(rendering)
    finally:
        counted = channel.receive(RECEIVE_SECONDS) if started else None
        if started:
            process.terminate()  # it has sent, or failed to in time
            process.join()
        channel.close()
    if not isinstance(counted, dict) or counted.get("_text") != rendering_bytes(rendering):
        return prefix_tokens(rendering, tokenizer, source=source)
    return PrefixTokens(rendering, tokenizer, source=source, **counted)


class _Channel:
    """One message from a forked process to this one: pickled into a file in memory that both share, with a pipe
    to say it is there.

    Why not the pipe alone: a pipe passes at most 64 KB at a time, and each read waits for the GIL while this
    process's other threads run. 157 MB took 12.7 s to arrive beside one busy thread, against 0.3 s this way."""

    def __init__(self, context) -> None:
        self._waiting, self._ready = context.Pipe(duplex=False)
        self._file = _file_in_memory()

    def send(self, message: object) -> None:
        """In the forked process: write the message, then say so (or that it could not be written)."""
        try:
            pickle.dump(message, self._file, protocol=pickle.HIGHEST_PROTOCOL)
            self._file.flush()
            written = True
        except OSError:  # no room for it: counted in the receiving process
            written = False
        self._ready.send_bytes(b"sent" if written else b"")
        self._ready.close()

    def close_sending_end(self) -> None:
        """In this process, once the forked one holds the sending end: a process that dies closes the pipe."""
        self._ready.close()

    def receive(self, seconds: float) -> object | None:
        """The message, or None if none is sent within `seconds` (or the process died first)."""
        try:
            if not self._waiting.poll(seconds) or self._waiting.recv_bytes() != b"sent":
                return None
            self._file.seek(0)
            return pickle.load(self._file)
        except (EOFError, OSError, pickle.UnpicklingError):
            return None  # the process died or closed the pipe early

    def close(self) -> None:
        self._ready.close()
        self._waiting.close()
        self._file.close()


def _file_in_memory() -> IO[bytes]:
    """A file with no name that lives in memory (Linux's memfd; elsewhere an unnamed temporary file)."""
    if hasattr(os, "memfd_create"):
        return os.fdopen(os.memfd_create("graph-context-lab-counts", os.MFD_CLOEXEC), "w+b")
    return tempfile.TemporaryFile()


def _count_and_send(make: Callable[[], tuple[Rendering, tuple | None]], tokenizer: Tokenizer,
                    channel: _Channel) -> None:
    """In the forked process: make the rendering, count it and send what counting added (None if it failed)."""
    # The process lives for this one rendering. The cyclic collector would only walk the millions of objects it
    # makes (and copy page by page the parent's it shares), to free next to nothing before the process ends.
    gc.disable()
    try:
        counted: dict | None = counted_fields(prefix_tokens(make()[0], tokenizer))
    except Exception:  # counted again in the receiving process (which raises the error, if it fails there too)
        counted = None
    channel.send(counted)
