"""The way back from a click-through (dashboard.state.detour): kept before a page overwrites the sidebar, a
banner above the page that opened the cut, and a button that restores the user's selection and page."""

from __future__ import annotations

import streamlit as st

from dashboard.sidebar import request_selection
from dashboard.state.detour import Detour, changes, come_back, leave
from dashboard.url_state import unbound_query_params

KEPT = "detour_kept"
RETURN_REQUEST = "detour_return"


def keep_selection(origin_page: str, origin_title: str) -> None:
    """Call before a click-through writes the sidebar's keys (in its callback)."""
    state = st.session_state
    state[KEPT] = leave(state, state.get(KEPT), origin_page, origin_title)


def _back() -> None:
    detour: Detour | None = st.session_state.pop(KEPT, None)
    if detour is not None:
        restored: dict[str, object] = {}
        come_back(restored, detour)
        request_selection(restored)  # applied after the graph, whose own defaults would otherwise win
        st.session_state[RETURN_REQUEST] = detour.origin_page


def _keep() -> None:
    st.session_state.pop(KEPT, None)


def return_if_asked() -> None:
    """After the navigation exists: open the page the user came from, once the button restored the selection."""
    origin = st.session_state.pop(RETURN_REQUEST, None)
    if origin:
        st.switch_page(origin, query_params=unbound_query_params())


def way_back(container) -> None:
    """The banner, while a click-through's cut is shown: what it changed, and the two ways out of it."""
    detour: Detour | None = st.session_state.get(KEPT)
    if detour is None:
        return
    changed = changes(detour, st.session_state)
    box = container.container(border=True, key="detour_banner")
    box.markdown(f"**Showing a cut opened from {detour.origin_title}.** "
                 + ("It changed " + "; ".join(changed) + "." if changed else "Your selection is unchanged."))
    row = box.container(horizontal=True, gap="small")  # buttons as wide as their words: never "Back to your …"
    row.button(f"Back to your selection on {detour.origin_title}", key="detour_back", on_click=_back,
               icon=":material/undo:", type="primary", width="content")
    row.button("Keep this selection", key="detour_keep", on_click=_keep, width="content")
