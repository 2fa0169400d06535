"""The analysis pages in a real browser: charts draw offline, a Pareto click opens Contexts, the report downloads."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_dashboard_in_chromium import go_to, settle, shot, visit

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PAGES = {"advisor": "Advisor", "token-anatomy": "Token anatomy", "budget-survival": "Budget survival", "orderings": "Orderings",
         "pareto": "Pareto", "exports": "Exports"}


def wait_for_chart(page) -> None:
    page.locator('[data-testid="stPlotlyChart"] .main-svg').first.wait_for(timeout=60_000)
    page.wait_for_timeout(500)


def test_every_analysis_page_draws_offline(dashboard_url, guarded_page):
    page, guard = guarded_page
    visit(page, f"{dashboard_url}/?overview_tokenizers=true", "Overview")
    wait_for_chart(page)
    shot(page, "page-overview-tokenizers")
    for path, title in PAGES.items():
        go_to(page, title)
        if path == "advisor":  # no chart: the advice and its tables
            page.get_by_text("Every candidate at this budget").first.wait_for(timeout=120_000)
        elif path != "exports":
            wait_for_chart(page)
        shot(page, f"page-{path}")
    with page.expect_download(timeout=120_000) as download:
        page.get_by_role("button", name="One-page report (HTML)").click()
    report = download.value.path().read_text(encoding="utf-8")
    assert "Reproduce this view" in report and report.count("plotly-graph-div") == 4
    (ARTIFACTS / "report.html").write_text(report, encoding="utf-8")
    guard.assert_clean()
    # The downloaded report, opened offline (every request outside the machine is aborted), draws its charts
    page.goto((ARTIFACTS / "report.html").as_uri(), wait_until="load")
    page.wait_for_function("() => document.querySelectorAll('.plotly-graph-div .main-svg').length >= 4",
                           timeout=60_000)
    assert page.evaluate("() => typeof Plotly") == "object"
    page.screenshot(path=str(ARTIFACTS / "report-offline.png"), full_page=True)
    guard.assert_clean()


def test_clicking_a_pareto_point_opens_its_cut_on_contexts(dashboard_url, guarded_page):
    page, guard = guarded_page
    visit(page, dashboard_url, "Overview")
    go_to(page, "Pareto")
    wait_for_chart(page)
    page.locator('[data-testid="stPlotlyChart"] .scatterlayer .point').first.click(force=True)
    page.locator("h1", has_text="Contexts").first.wait_for(timeout=60_000)
    settle(page)
    shot(page, "pareto-click-contexts")
    guard.assert_clean()


def test_the_adversarial_sample_draws_every_analysis_page_as_text(dashboard_url, guarded_page):
    page, guard = guarded_page
    visit(page, f"{dashboard_url}/?sample=adversarial", "Overview")
    for path, title in PAGES.items():
        go_to(page, title)
        assert page.locator("img[src=x]").count() == 0
        shot(page, f"adversarial-{path}")
    guard.assert_clean()
