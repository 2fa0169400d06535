"""Put back into the URL the values of bound widgets that a page switch during the first run dropped.

A page opened while the first run is still drawing makes the browser build the new page's URL before
it knows which parameters are bound, so `?sample=nvidia-jetson` becomes `/contexts` while the session
still shows nvidia-jetson. Streamlit restores such values only for widgets that had a previous run;
this restores the rest. It uses Streamlit's internal binding registry (1.67), read under its lock.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.state.session_state_proxy import get_session_state

FIRST_URL = "first_url_parameters"


def restore_lost_parameters() -> None:
    """Each parameter of the session's first URL that the URL lost while its widget still holds a value
    other than its default (only those: a value the session chose itself is written by Streamlit)."""
    first = st.session_state.setdefault(FIRST_URL, tuple(st.query_params))
    values = {key: st.session_state[key] for key in first if key in st.session_state}
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

