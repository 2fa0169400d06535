"""The URL parameters a page switch carries, and the one repair that needs Streamlit's internals.

`unbound_query_params` uses public APIs only: a parameter bound to a widget (`bind="query-params"`)
belongs to a widget drawn in this or the last run, so its key is in `st.session_state`; every other
parameter (a shared link's settings for a page not opened yet) is one `st.switch_page` may carry,
and must carry, since a switch clears the parameters no widget on the new page binds.

`hold_widget_values` uses public APIs only: it assigns each bound sidebar widget the value the session holds,
once per full run, before the widget is drawn. Why: on a warm server the browser sometimes never takes a
URL-seeded select box's value (or, after a page switch whose request carried none of their states, the
value Streamlit kept for them), and keeps showing and sending the widget's default; the next full run
then hears "reference-services" from the sample box and the session falls back to the default sample
and budget. An assigned value is sent with the widget, so the browser shows and sends it from then on.

`restore_lost_parameters` and `write_back` are the only use of Streamlit internals in the dashboard, kept
here alone. Why: a page opened while a run is still drawing makes the browser build the new page's URL
before it knows which parameters are bound, or the values that run assigned, so `?sample=nvidia-jetson`
becomes `/contexts` while the session still shows nvidia-jetson, and a sample switched just before a click
on Contexts lost its new `budget`. Streamlit restores such values only for widgets that had a previous
run (and not an assigned one), and its public `st.query_params` refuses to write a bound parameter, so
this reads its binding registry (1.67) under its lock. tests/dashboard/test_url_state.py fails when those
internals change; the app then keeps working and only this repair stops.
"""

from __future__ import annotations

import streamlit as st

FIRST_URL = "first_url_parameters"


def unbound_query_params() -> dict[str, list[str]]:
    """The URL's parameters that no widget is bound to, every value of each (switch_page may only carry those;
    bound widgets write theirs back)."""
    return {key: st.query_params.get_all(key) for key in st.query_params if key not in st.session_state}


def hold_widget_values(keys) -> None:
    """Assign every key of `keys` that the session holds its own value (widgets not drawn yet in this run only:
    Streamlit refuses an assignment to a widget already drawn), so the browser takes the server's value."""
    state = st.session_state
    for key in [key for key in keys if key in state]:
        state[key] = state[key]


def restore_lost_parameters() -> None:
    """Each parameter of the session's first URL that the URL lost while its widget still holds a value
    other than its default (only those: a value the session chose itself is written by Streamlit)."""
    write_back(st.session_state.setdefault(FIRST_URL, tuple(st.query_params)))


def write_back(keys) -> None:
    """Each of `keys` bound to a widget that the URL lacks while the session holds a value
    other than the widget's default (one at its default is left out of the URL, as Streamlit leaves it)."""
    values = {key: st.session_state[key] for key in keys if key in st.session_state}
    if not values:
        return
    try:
        from streamlit.runtime.state.session_state_proxy import get_session_state

        safe = get_session_state()
        with safe.query_params() as parameters:
            widget_state = safe._state._new_widget_state
            for key, binding in list(parameters._bindings_by_param.items()):
                if parameters.has_param(key) or key not in values:
                    continue
                metadata = widget_state.widget_metadata.get(binding.widget_id)
                if metadata is None or values[key] == metadata.deserializer(None):
                    continue
                parameters.set_corrected_value(key, metadata.serializer(values[key]), metadata.value_type)
    except (ImportError, AttributeError):  # Streamlit changed its internals: the repair stops, the app goes on
        return
