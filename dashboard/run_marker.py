"""A hidden count of the session's full script runs, so a browser can tell a fragment rerun from a full one."""

from __future__ import annotations

import streamlit as st

FULL_RUNS = "full_runs"


def count_full_run() -> int:
    """Count this full run and write the count into an invisible element (fragment reruns never reach here)."""
    runs = st.session_state.get(FULL_RUNS, 0) + 1
    st.session_state[FULL_RUNS] = runs
    st.sidebar.html(f'<span class="full-run-count" data-runs="{runs}" hidden></span>')
    return runs
