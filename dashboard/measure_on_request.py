"""Every-format measurements on a large graph: run when the reader asks, one format at a time behind a progress bar
with the time left and a Stop button.

Each format's figures are kept as soon as they are measured, so a stopped (or interrupted) measurement
continues where it stopped; the page shows the table only once every format is measured. Below the
threshold (core.reports.graph_size) the Overview measures at once, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
import streamlit as st

from dashboard.progress_run import progress_bar
from dashboard.result_store import ResultStore

ROWS_KEPT = 1_024  # one small table row per (graph, setting, format)
REQUESTED = "measurements_requested"  # the measurements this session asked for


@st.cache_resource
def _rows() -> ResultStore:
    return ResultStore(ROWS_KEPT)


def _requested() -> set:
    return st.session_state.setdefault(REQUESTED, set())


def measured(key: tuple, names: Sequence[str], measure_one: Callable[[str], pd.DataFrame], *, what: str, ask: str,
             explanation: str) -> pd.DataFrame | None:
    """The rows of `measure_one(name)` for every name, concatenated in order; None while some are not measured.

    Unasked, it explains and offers the button `ask`; asked, it measures the missing formats one by one
    (the bar names the format being measured and, after the first, the time left; Stop withdraws the request).
    """
    rows = _rows()
    found = {name: rows.get((*key, name)) for name in names}
    missing = [name for name, row in found.items() if row is None]
    if not missing:
        return pd.concat(list(found.values()))
    done = len(names) - len(missing)
    requested = _requested()
    slot = st.empty()  # the request, then the bar and Stop in its place
    if key not in requested:
        kept = f" {done:,} of {len(names):,} formats were measured before it stopped; they are kept." if done else ""
        box = slot.container()
        box.info(explanation + kept, icon=":material/hourglass_empty:")
        box.button(ask, on_click=requested.add, args=(key,), type="primary")
        return None
    with progress_bar(key, what, "formats", on_stop=lambda: requested.discard(key),
                      stop_help="Stop after the format being measured; the formats done so far are kept",
                      slot=slot) as progress:
        for index, name in enumerate(missing):
            progress(done + index, len(names), name)
            found[name] = measure_one(name)
            rows.put((*key, name), found[name])
    requested.discard(key)
    return pd.concat(list(found.values()))

