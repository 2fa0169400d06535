"""A rendering made and counted in a forked process while this process makes it again for its records.

Why: rendering and counting are Python (tiktoken's `encode_to_numpy` holds the GIL too), so the threads of one
process make one rendering at a time, and a large graph's first page waits for two (the 200,000-edge graph:
pretty_json renders in 0.9 s and counts in 2 s; compact_json renders and counts in 1.6 s). A forked process
starts with the graph, its units and the tokenizer already in its memory (nothing is pickled to start it), makes
the rendering, counts it, and sends back only what counting adds: the token arrays and the text's bytes
(pretty_json: 160 MB, read in 0.1 s). Its records stay there: 240,000 of them take longer to pickle, send and
unpickle than to make again here, which this process does meanwhile, in a thread of its own. The two are joined
when their texts are equal byte for byte.

Where the process fails to count or send, stays silent for RECEIVE_SECONDS, or its text differs (a tokenizer that
normalizes keeps the normalized text), the rendering is counted here instead: the same result, only later.
"""

from __future__ import annotations

import gc
import multiprocessing
import pickle
from collections.abc import Callable
from multiprocessing.connection import Connection

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
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=_count_and_send, args=(make, tokenizer, sending), daemon=True)
    try:
        process.start()
    except OSError:  # no process to be had (memory, a limit on processes): counted here
        started = False
    else:
        started = True
        sending.close()
    try:
        rendering, source = make()
        if meanwhile is not None:
            meanwhile(rendering)
    finally:
        counted = _receive(receiving) if started else None
        if started:
            process.terminate()  # it has sent, or failed to in time
            process.join()
        sending.close()
        receiving.close()
    if counted is None or counted.get("_text") != rendering_bytes(rendering):
        return prefix_tokens(rendering, tokenizer, source=source)
    return PrefixTokens(rendering, tokenizer, source=source, **counted)


def _receive(connection: Connection) -> dict | None:
    try:
        if not connection.poll(RECEIVE_SECONDS):
            return None  # stuck: counted here, the process ended
        return pickle.loads(connection.recv_bytes())
    except (EOFError, OSError, pickle.UnpicklingError):
        return None  # the process died or closed the pipe early


def _count_and_send(make: Callable[[], tuple[Rendering, tuple | None]], tokenizer: Tokenizer,
                    connection: Connection) -> None:
    """In the forked process: make the rendering, count it and send what counting added (None if it failed)."""
    # The process lives for this one rendering. The cyclic collector would only walk the millions of objects it
    # makes (and copy page by page the parent's it shares), to free next to nothing before the process ends.
    gc.disable()
    try:
        rendering, _ = make()
        message = pickle.dumps(counted_fields(prefix_tokens(rendering, tokenizer)), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # counted again in the receiving process (which raises the error, if it fails there too)
        message = pickle.dumps(None)
    connection.send_bytes(message)
    connection.close()
