"""A long sweep shows its progress with the time left and can be stopped, in Chromium (a click ends the run)."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.session import RUN_TIMEOUT, settle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

BIG = "source=generator&generator=services&services_services=2000&services_noise_edges=4000"  # Pareto: every format


def test_a_sweep_on_a_big_graph_shows_the_time_left_and_stops(dashboard_url, guarded_page):
    page, guard = guarded_page
    page.goto(f"{dashboard_url}/?{BIG}", wait_until="domcontentloaded")  # a deep link probes a 404 first
    page.locator("h1", has_text="Overview").first.wait_for(timeout=RUN_TIMEOUT * 3)
    settle(page, RUN_TIMEOUT * 3)
    page.locator('[data-testid="stSidebarNav"] a', has_text="Pareto").first.click()
    stop = page.get_by_role("button", name="Stop")
    stop.wait_for(timeout=RUN_TIMEOUT * 3)
    bar = page.locator('[data-testid="stProgress"]').first
    page.wait_for_function("() => /s left/.test(document.querySelector('[data-testid=stProgress]')?.innerText || '')",
                           timeout=RUN_TIMEOUT)
    assert re.search(r"Sweeping budgets .*: [\d,]+ of [\d,]+ cuts, [\d,]+ s so far, about [\d,]+ s left",
                     bar.inner_text())
    page.screenshot(path=str(ARTIFACTS / "sweep-progress.png"))
    stop.click()
    page.get_by_text("The sweep was stopped").wait_for(timeout=RUN_TIMEOUT)
    settle(page)
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 0  # nothing half-computed is drawn
    page.get_by_role("button", name="Run the sweep").click()
    page.get_by_role("button", name="Stop").wait_for(timeout=RUN_TIMEOUT)  # it runs again
    page.get_by_role("button", name="Stop").click()
    page.get_by_text("The sweep was stopped").wait_for(timeout=RUN_TIMEOUT)
    settle(page)
    guard.assert_clean()
