"""A progress bar for long work, with the time left at the pace so far and a Stop button (sweeps, measurements).

Any click reruns the page and ends the running work at its next Streamlit call (a progress update), so
Stop only has to remember what it stopped (its `on_stop` callback); the caller decides what the page
shows after that.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

import streamlit as st

from core.execution.progress_estimate import progress_text

Progress = Callable[[int, int, str], None]  # (done, total, what is being done now)


@contextmanager
def progress_bar(key: Hashable, what: str, unit: str, on_stop: Callable[[], None], stop_help: str,
                 slot=None) -> Iterator[Progress]:
    """Draw the bar and the Stop button (in `slot`, an `st.empty()`, if given); yield the callback that moves the
    bar; remove both when the work is done.

    A slot whose previous run held two elements (a notice and a button) has them replaced at once, where
    elements of their own would leave the old ones on screen, greyed, until the run ends.
    """
    running = slot if slot is not None else st.empty()
    running.empty()  # first clear what the slot held in the previous run
    box = running.container()
    bar = box.progress(0.0, text=f"{what}…")
    box.button("Stop", key=f"stop_{abs(hash(key))}", icon=":material/stop:", on_click=on_stop, help=stop_help)
    started = time.monotonic()

    def progress(done: int, total: int, detail: str) -> None:
        label = f"{what} ({detail})" if detail else what
        bar.progress(min(done / max(total, 1), 1.0),
                     text=progress_text(label, done, total, time.monotonic() - started, unit))

    yield progress
    running.empty()
