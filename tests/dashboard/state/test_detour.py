"""The way back from a click-through: the user's own selection is kept once and restored whole."""

from __future__ import annotations

from dashboard.state.detour import changes, come_back, leave


def test_the_users_selection_comes_back_after_two_click_throughs():
    state = {"formats": ["pretty_json", "csv"], "budget": 961, "ordering": "canonical", "q_hops": 2, "other": 1}
    kept = leave(state, None, "screens/pareto.py", "Pareto")
    state.update(formats=["toon"], budget=1200, q_relation="calls")
    kept_again = leave(state, kept, "screens/question_set.py", "Question set")
    assert kept_again is kept  # the second click-through keeps the first one's: the user's own
    assert changes(kept, state) == ["formats pretty_json, csv → toon", "budget 961 → 1,200"]
    come_back(state, kept)
    assert state == {"formats": ["pretty_json", "csv"], "budget": 961, "ordering": "canonical", "q_hops": 2,
                     "other": 1, "q_relation": "calls"}


def test_the_kept_values_are_copies_not_the_live_lists():
    state = {"formats": ["csv"]}
    kept = leave(state, None, "screens/pareto.py", "Pareto")
    state["formats"].append("toon")
    assert kept.values()["formats"] == ["csv"]
