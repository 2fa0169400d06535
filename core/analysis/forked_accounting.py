"""Accountings made in a forked process while this one makes another: two cores for a large graph's first renderings.

Why: rendering is Python, so the threads of one process render one at a time (the GIL), and a large graph's first
renderings are what its first page waits for (the 200,000-edge graph: pretty_json 3.5 s, then compact_json 1.7 s).
A forked process starts with the graph and the specs already in its memory (nothing is pickled to start it) and
sends back what the accounting holds, without its tokenizer and graph (compact_json: 100 MB, read in 0.3 s).

Where the process fails to make, send or finish one, that accounting is made here instead: the same result,
only later.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import pickle
import threading
from collections.abc import Hashable, Sequence
from multiprocessing.connection import Connection

from core.analysis.sweep import accounted_rendering, rendering_units
from core.specs import RenderingSpec
from core.tokens.prefix_tokens import PrefixTokens

# How long one accounting may take to arrive. The largest graph's take 2-5 s; past this the process is taken to be
# stuck and the accounting is made here.
RECEIVE_SECONDS = 120.0
_NOT_SENT = ("tokenizer", "source")  # the receiving process has both: the spec's tokenizer, the graph and its units


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


class ForkedAccounting:
    """The accountings of `specs`, made in order in a process forked now; `result(spec)` waits for one."""

    def __init__(self, specs: Sequence[RenderingSpec]) -> None:
        self._specs = list(specs)
        self._received: dict[Hashable, PrefixTokens | None] = {}  # None: the process did not make it
        self._lock = threading.Lock()  # one reader of the pipe at a time
        context = multiprocessing.get_context("fork")
        self._connection, sending = context.Pipe(duplex=False)
        self._process = context.Process(target=_account_and_send, args=(self._specs, sending), daemon=True)
        self._process.start()
        sending.close()

    def result(self, spec: RenderingSpec) -> PrefixTokens:
        """The accounting of `spec` (one of the specs given): the process's, or made here if it failed."""
        with self._lock:
            while spec.key not in self._received and len(self._received) < len(self._specs):
                expected = self._specs[len(self._received)]
                self._received[expected.key] = self._receive(expected)
            found = self._received.get(spec.key)
        return found if found is not None else accounted_rendering(spec)

    def _receive(self, spec: RenderingSpec) -> PrefixTokens | None:
        try:
            if not self._connection.poll(RECEIVE_SECONDS):
                return None  # stuck (a lock another thread held when it forked): made here, the process ended
            fields = pickle.loads(self._connection.recv_bytes())
        except (EOFError, OSError, pickle.UnpicklingError):
            return None  # the process died or closed the pipe early
        if fields is None:
            return None
        return PrefixTokens(**fields, tokenizer=spec.tokenizer,
                            source=(spec.graph, rendering_units(spec), spec.ordering, spec.inputs))

    def close(self) -> None:
        """End the process (it may still be sending an accounting nobody asked for) and the pipe."""
        self._process.terminate()
        self._process.join()
        self._connection.close()


def _account_and_send(specs: Sequence[RenderingSpec], connection: Connection) -> None:
    """In the forked process: account each spec in order and send what its accounting holds (None if it failed)."""
    for spec in specs:
        try:
            accounting = accounted_rendering(spec)
            message = pickle.dumps({field.name: getattr(accounting, field.name)
                                    for field in dataclasses.fields(accounting) if field.name not in _NOT_SENT},
                                   protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # the receiving process makes this one itself (and raises its error, if it fails there)
            message = pickle.dumps(None)
        connection.send_bytes(message)
    connection.close()
