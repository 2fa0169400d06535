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


def test_a_sample_switch_keeps_its_new_budget_in_the_url_when_the_next_page_lost_it():
    """A click on Contexts while a sample switch's run still draws: the browser builds the new page's URL before
    it has the new budget (Chromium, about 2 of 9 clicks). Streamlit writes an assigned value back only for a
    widget it drew in the last run, and the budget is assigned in every run."""
    app = started()
    app.sidebar.selectbox(key="sample").set_value("online-boutique").run()
    budget = app.session_state["budget"]
    app.query_params.pop("budget", None)  # the URL the browser built for the next page
    on_page(app, "contexts")
    assert app.session_state["budget"] == budget and app.query_params["budget"] == str(budget)
    assert "seeds" not in app.query_params and "q_hops" not in app.query_params  # only the budget is written back
