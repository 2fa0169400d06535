"""A long sweep shows its progress with the time left and can be stopped, in Chromium (a click ends the run)."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.session import RUN_TIMEOUT, settle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

# Pareto sweeps every format: about 20 s on 20,000 services on a quiet machine (2,000 services now take 2 s, too
# short to press Stop twice before the sweep ends)
BIG = "source=generator&generator=services&services_services=20000&services_noise_edges=40000"
LONG_ENOUGH = 5  # seconds left when Stop is pressed; below this the test races the sweep's end


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
    shown = re.search(r"Sweeping budgets .*: [\d,]+ of [\d,]+ cuts, [\d,]+ s so far, about ([\d,]+) s left",
                      bar.inner_text())
    assert shown, bar.inner_text()
    assert int(shown[1].replace(",", "")) >= LONG_ENOUGH, f"the sweep is too short to stop: {shown[0]}; use a bigger graph"
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
