"""A budget change on a page that depends on the budget alone reruns only that page's fragment, in Chromium.

AppTest reruns the whole script for a fragment's widget, so only a browser shows this: the app counts its
full runs in a hidden element (dashboard/run_marker.py), and the count must not move when the budget does.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.session import (
    add_format_on_contexts,
    full_runs,
    open_page,
    settle,
    sidebar_budget,
    url_parameters,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def budget_slider(page):
    return page.locator('[data-testid="stSlider"]').filter(has_text="Token budget").first


def tokens_used(page) -> list[str]:
    return [item.inner_text() for item in page.locator('[data-testid="stMetric"]').filter(
        has_text="Tokens used / budget").locator('[data-testid="stMetricValue"]').all()]


@pytest.mark.parametrize("title", ["Contexts", "Graph", "Token anatomy"])
def test_a_budget_change_reruns_only_the_pages_fragment(dashboard_url, guarded_page, title):
    page, guard = guarded_page
    page.goto(f"{dashboard_url}/?sample=nvidia-jetson", wait_until="domcontentloaded")
    page.locator("h1", has_text="Overview").first.wait_for(timeout=90_000)
    settle(page)
    open_page(page, title)
    assert page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').count() == 0  # it is on the page
    before, budget = full_runs(page), sidebar_budget(page)
    shown = tokens_used(page)
    thumb = budget_slider(page).locator("input[type=range]").first
    thumb.focus()
    for _ in range(3):
        thumb.press("ArrowRight")
        settle(page)
    wait_until(page, lambda: sidebar_budget(page) > budget)
    moved = sidebar_budget(page)
    assert full_runs(page) == before  # only the fragment ran
    assert url_parameters(page)["budget"] == [str(moved)]
    if title == "Contexts":
        wait_until(page, lambda: all(value.endswith(f"/ {moved:,}") for value in tokens_used(page)))
        assert tokens_used(page) != shown
    # A widget outside the fragment still reruns the whole script (the count can move: the check can fail).
    page.locator('[data-testid="stSidebar"] input[role="combobox"][aria-label="Ordering"]').first.click()
    page.keyboard.type("hop_tiers")
    page.keyboard.press("Enter")
    settle(page)
    wait_until(page, lambda: full_runs(page) > before)
    # The budget survives the full run, and so does the URL's graph (test_warm_session_in_chromium.py says why
    # it did not)
    assert sidebar_budget(page) == moved
    assert url_parameters(page)["budget"] == [str(moved)] and url_parameters(page)["sample"] == ["nvidia-jetson"]
    page.screenshot(path=str(ARTIFACTS / f"fragment-{title.lower().replace(' ', '-')}.png"))
    guard.assert_clean()


def test_a_format_change_on_contexts_reruns_only_its_fragment(dashboard_url, guarded_page):
    page, guard = guarded_page
    page.goto(f"{dashboard_url}/?sample=nvidia-jetson", wait_until="domcontentloaded")
    page.locator("h1", has_text="Overview").first.wait_for(timeout=90_000)
    settle(page)
    open_page(page, "Contexts")
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert sidebar.locator('[data-testid="stMultiSelect"]').filter(has_text="Formats").count() == 0
    sidebar.get_by_text("chosen on this page").first.wait_for()
    before = full_runs(page)
    add_format_on_contexts(page, "csv")
    settle(page)
    page.locator("h3", has_text="csv · record").first.wait_for(timeout=60_000)
    assert full_runs(page) == before  # only the fragment ran
    assert url_parameters(page)["formats"] == ["pretty_json", "compact_json", "csv"]
    page.screenshot(path=str(ARTIFACTS / "fragment-contexts-formats.png"))
    open_page(page, "Walkthrough")  # the choice is the sidebar's on every other page
    sidebar.locator('[data-testid="stMultiSelect"]').filter(has_text="Formats").get_by_text("csv").first.wait_for()
    guard.assert_clean()
