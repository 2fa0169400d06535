"""A graph above the large-graph threshold in Chromium: the Overview shows the graph's own figures at once, and
measures every format only when asked, behind a bar with the time left and a Stop button that keeps what is done.

The server runs with a small threshold (its environment variable), so the 2,000-service graph counts as large.
"""

from __future__ import annotations

import re

import pytest

from core.formats import FORMATS
from dashboard.large_graph import THRESHOLD_VARIABLE
from tests.browser.conftest import ARTIFACTS, running_dashboard
from tests.browser.session import RUN_TIMEOUT, add_format_on_contexts, full_runs, open_page, settle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

BIG = "source=generator&generator=services&services_services=2000&services_noise_edges=4000"  # 6,011 units


@pytest.fixture(scope="module")
def small_threshold_url():
    with running_dashboard({THRESHOLD_VARIABLE: "1000"}, "streamlit-large-graph.log") as url:
        yield url


def test_a_large_graph_opens_at_once_and_measures_every_format_when_asked(small_threshold_url, guarded_page):
    page, guard = guarded_page
    page.goto(f"{small_threshold_url}/?{BIG}", wait_until="domcontentloaded")
    page.get_by_text("A large graph: 6,011 nodes and edges").wait_for(timeout=RUN_TIMEOUT)
    settle(page, RUN_TIMEOUT * 3)
    assert "above the 1,000" in page.locator('[data-testid="stAlert"]').first.inner_text()
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text() == "2,003"  # nodes, with no rendering
    page.screenshot(path=str(ARTIFACTS / "large-graph-overview.png"), full_page=True)
    page.get_by_role("button", name="Measure every format").click()
    stop = page.get_by_role("button", name="Stop")
    stop.wait_for(timeout=RUN_TIMEOUT)
    page.wait_for_function("() => /s left/.test(document.querySelector('[data-testid=stProgress]')?.innerText || '')",
                           timeout=RUN_TIMEOUT)
    text = page.locator('[data-testid="stProgress"]').first.inner_text()
    assert re.search(rf"Measuring every format \(\w+\): [\d,]+ of {len(FORMATS)} formats, [\d,]+ s so far, about [\d,]+ s left",
                     text), text
    page.screenshot(path=str(ARTIFACTS / "large-graph-measuring.png"), full_page=True)
    stop.click()
    page.get_by_text("formats were measured before it stopped").wait_for(timeout=RUN_TIMEOUT)
    settle(page)
    kept = int(re.search(rf"([\d,]+) of {len(FORMATS)} formats were measured", page.get_by_text("before it stopped").inner_text()
                         ).group(1))
    assert 1 <= kept < len(FORMATS)
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 0  # nothing half-measured is drawn
    page.get_by_role("button", name="Measure every format").click()  # continues where it stopped
    page.get_by_text("Cheapest lossless format").wait_for(timeout=RUN_TIMEOUT * 3)
    settle(page, RUN_TIMEOUT * 3)
    page.locator('[data-testid="stPlotlyChart"] .main-svg').first.wait_for(timeout=RUN_TIMEOUT)
    assert page.get_by_role("button", name="Measure every format").count() == 0
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 1  # the tokens chart; the tokenizers' waits
    page.screenshot(path=str(ARTIFACTS / "large-graph-measured.png"), full_page=True)
    guard.assert_clean()


def test_a_format_added_on_contexts_of_a_large_graph_runs_the_whole_script(small_threshold_url, guarded_page):
    # The budget range and defaults of a large graph come from the shown formats' counts: the new format's are
    # counted in a full run, which then redraws the sidebar's budgets too.
    page, guard = guarded_page
    page.goto(f"{small_threshold_url}/?{BIG}", wait_until="domcontentloaded")
    page.get_by_text("A large graph: 6,011 nodes and edges").wait_for(timeout=RUN_TIMEOUT)
    settle(page, RUN_TIMEOUT * 3)
    open_page(page, "Contexts")
    before = full_runs(page)
    add_format_on_contexts(page, "csv")
    page.locator("h3", has_text="csv · record").first.wait_for(timeout=RUN_TIMEOUT * 3)
    settle(page, RUN_TIMEOUT * 3)
    assert full_runs(page) > before
    assert len(page.locator('[data-testid="stMetric"]').filter(has_text="Records kept / total").all()) == 3
    guard.assert_clean()
