"""Click-throughs that do not destroy: "Show me" opens its cut, a banner says what changed, and the way back
restores the user's formats, ordering, budget and page."""

from __future__ import annotations

from tests.dashboard.conftest import on_page, started


def test_show_me_keeps_the_users_selection_and_the_banner_brings_it_back():
    app = started()
    app.sidebar.multiselect(key="formats").set_value(["csv", "toon", "yaml"]).run()
    app.sidebar.selectbox(key="ordering").set_value("bfs_from_seeds").run()
    app.sidebar.number_input(key="budget").set_value(777).run()
    on_page(app, "walkthrough")
    app.button(key="step_2").click().run()
    app.button(key="step_3").click().run()  # a second click-through keeps the first one's selection
    assert app.sidebar.multiselect(key="formats").value != ["csv", "toon", "yaml"]
    banner = " ".join(item.value for item in app.markdown if "Showing a cut opened from" in item.value)
    assert "the walkthrough" in banner and "budget 777 →" in banner and "ordering bfs_from_seeds → hop_tiers" in banner
    app.button(key="detour_back").click().run()
    assert not app.exception
    assert app.sidebar.multiselect(key="formats").value == ["csv", "toon", "yaml"]
    assert app.sidebar.selectbox(key="ordering").value == "bfs_from_seeds"
    assert app.sidebar.number_input(key="budget").value == 777
    assert not [item for item in app.markdown if "Showing a cut opened from" in item.value]


def test_keeping_the_click_throughs_selection_removes_the_banner():
    app = on_page(started(), "walkthrough")
    app.button(key="step_1").click().run()
    app.button(key="detour_keep").click().run()
    assert not [item for item in app.markdown if "Showing a cut opened from" in item.value]
    assert app.sidebar.button_group(key="policy").value == "raw"


def test_the_way_back_restores_another_samples_seeds_and_budget_over_its_defaults():
    from core.io.samples import default_sample, sample_names

    other = next(name for name in sample_names() if name != default_sample().name)
    app = started(sample=other)
    seeds, budget = app.sidebar.multiselect(key="seeds").value, app.sidebar.number_input(key="budget").value
    app.sidebar.number_input(key="budget").set_value(budget + 7).run()
    on_page(app, "walkthrough")
    app.button(key="step_1").click().run()
    assert app.sidebar.selectbox(key="sample").value == default_sample().name
    app.button(key="detour_back").click().run()
    assert not app.exception
    assert app.sidebar.selectbox(key="sample").value == other
    assert app.sidebar.multiselect(key="seeds").value == seeds
    assert app.sidebar.number_input(key="budget").value == budget + 7
