"""Long work behind a bar with a Stop button: what a stopped run shows, and a Stop pressed as the run ended."""

from streamlit.testing.v1 import AppTest

from dashboard.analysis_cache import SWEEP_STOPPED


def counting_page(name: str) -> None:
    """A page whose one computation counts how often it ran (kept in the sweeps' store under `name`)."""
    import streamlit as st

    from dashboard.analysis_cache import with_progress

    def compute(progress):
        st.session_state["computed"] = st.session_state.get("computed", 0) + 1
        progress(1, 1, "")
        return 42

    st.write(f"value {with_progress(('test', name), 'Counting', 'steps', 'count', compute)}")


def page(name: str) -> AppTest:
    return AppTest.from_function(counting_page, args=(name,), default_timeout=30)


def texts(app: AppTest) -> list[str]:
    return [item.value for item in app.markdown]


def test_a_stopped_run_shows_nothing_until_it_is_run_again():
    app = page("stopped")
    app.session_state[SWEEP_STOPPED] = ("test", "stopped")
    app.run()
    assert "**The count was stopped.**" in app.info[0].value
    assert texts(app) == [] and "computed" not in app.session_state
    app.button[0].click().run()  # "Run the count"
    assert texts(app) == ["value 42"] and app.session_state["computed"] == 1
    assert SWEEP_STOPPED not in app.session_state


def test_a_stop_pressed_as_the_run_ended_keeps_its_result_and_is_forgotten():
    from dashboard.analysis_cache import _store

    app = page("late stop").run()
    assert texts(app) == ["value 42"]
    app.session_state[SWEEP_STOPPED] = ("test", "late stop")  # what Stop's callback does, too late to stop anything
    app.run()
    assert texts(app) == ["value 42"] and not app.info
    assert SWEEP_STOPPED not in app.session_state
    _store.clear()  # once the result leaves the store, the page computes it again instead of calling it stopped
    app.run()
    assert texts(app) == ["value 42"] and not app.info and app.session_state["computed"] == 2
