"""URL state across page switches: what a switch carries (public APIs), and the Streamlit internals the one
repair reads, pinned so a Streamlit upgrade that changes them fails here first."""

from __future__ import annotations

import inspect

from tests.dashboard.conftest import on_page, started


def test_a_click_switch_keeps_a_shared_links_settings_for_pages_not_opened_yet():
    app = on_page(started(budgets="512,2048", orderings_format="csv", anatomy_scope="cut at the budget"), "pareto")
    app.session_state["formats"] = ["csv"]
    app.session_state["budget"] = 512
    app.session_state["pareto_open_contexts"] = True  # what the chart's click callback leaves
    app.run()
    assert not app.exception, [item.value for item in app.exception]
    assert any(item.value == "Contexts" for item in app.title)
    # not bound on Pareto or Contexts: carried by switch_page; bound ones are written back by their widgets
    url = {key: [value] if isinstance(value, str) else list(value) for key, value in app.query_params.items()}
    assert url["orderings_format"] == ["csv"] and url["anatomy_scope"] == ["cut at the budget"]
    assert url["formats"] == ["csv"] and url["budgets"] == ["512,2048"]


def test_the_streamlit_internals_the_url_repair_reads_are_still_there():
    from streamlit.runtime.state.query_params import QueryParams
    from streamlit.runtime.state.safe_session_state import SafeSessionState
    from streamlit.runtime.state.session_state import SessionState, WidgetMetadata
    from streamlit.runtime.state.session_state_proxy import get_session_state

    assert callable(get_session_state) and callable(SafeSessionState.query_params)
    assert "_bindings_by_param" in QueryParams.__dataclass_fields__
    assert list(inspect.signature(QueryParams.set_corrected_value).parameters) == [
        "self", "param_key", "value", "value_type"]
    assert list(inspect.signature(QueryParams.has_param).parameters) == ["self", "param_key"]
    assert "_new_widget_state" in SessionState.__dataclass_fields__
    assert {"serializer", "deserializer", "value_type"} <= set(WidgetMetadata.__dataclass_fields__)
    from streamlit.runtime.state.session_state import WStates

    assert "widget_metadata" in WStates.__dataclass_fields__
