"""The dashboard in a real browser: every page draws, the budget moves the numbers, hostile labels stay text."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

PAGES = {"overview": "Overview", "contexts": "Contexts", "graph": "Graph", "walkthrough": "Walkthrough"}


def settle(page, timeout: float = 90_000) -> None:
    """Wait until the script run has finished (no running indicator, no spinner)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    page.wait_for_timeout(400)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=timeout)
    page.wait_for_selector('[data-testid="stSpinner"]', state="detached", timeout=timeout)


def visit(page, url: str, heading: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.locator("h1", has_text=heading).first.wait_for(timeout=90_000)
    settle(page)
    assert not page.locator('[data-testid="stException"]').count(), page.locator('[data-testid="stException"]').first.inner_text()


def go_to(page, title: str) -> None:
    """Follow the sidebar's navigation link, as a reader would (a deep link makes Streamlit probe
    `/<page>/_stcore/...` first, which answers 404 before it finds the base path)."""
    page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
    page.locator("h1", has_text=title).first.wait_for(timeout=90_000)
    settle(page)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def first_metric(page) -> str:
    return page.locator('[data-testid="stMetricValue"]').first.inner_text()


def picture(page):
    """The frame that runs the graph picture: inside Streamlit's iframe, sandboxed with scripts only."""
    return page.frame_locator('iframe[title="Graph view by hop tier"]').frame_locator('iframe[title="Graph picture"]')


def wait_for_graph(page) -> None:
    picture(page).locator("canvas").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)  # let vis-network draw


def test_every_page_draws_and_the_budget_moves_the_numbers(dashboard_url, guarded_page):
    page, guard = guarded_page
    visit(page, dashboard_url, "Overview")
    for path, title in PAGES.items():
        go_to(page, title)
        if path == "graph":
            wait_for_graph(page)
        if path == "overview":  # the plotly chart is drawn after the script run ends
            page.locator('[data-testid="stPlotlyChart"] .main-svg').first.wait_for(timeout=60_000)
        shot(page, f"page-{path}")
    go_to(page, "Contexts")
    before = first_metric(page)
    slider = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type=range]').first
    slider.focus()
    for _ in range(25):
        slider.press("ArrowRight")
    settle(page)
    page.wait_for_function(
        "before => document.querySelector('[data-testid=\"stMetricValue\"]').innerText !== before", arg=before,
        timeout=60_000)
    assert first_metric(page) != before
    shot(page, "contexts-after-budget-change")
    guard.assert_clean()


def test_the_adversarial_sample_shows_text_and_runs_nothing(dashboard_url, guarded_page):
    page, guard = guarded_page
    visit(page, f"{dashboard_url}/?sample=adversarial", "Overview")
    for title in ("Contexts", "Graph"):
        go_to(page, title)
        if title == "Graph":
            wait_for_graph(page)
            frame = picture(page)
            assert frame.locator("img").count() == 0
            outer = page.frame_locator('iframe[title="Graph view by hop tier"]')
            assert outer.locator('iframe[title="Graph picture"]').get_attribute("sandbox") == "allow-scripts"
            drawn = next(each for each in page.frames if each.query_selector("canvas"))
            assert drawn.evaluate("() => window.origin") == "null"  # an opaque origin: no way into the app
            assert drawn.evaluate("() => { try { return !!window.top.document.body; } catch (e) { return false; } }") \
                is False
            # the escaped JSON reads back as the very text: the hostile label is data in vis-network, not markup
            assert "<img src=x onerror=alert(1)>" in drawn.evaluate("() => nodes.get().map(node => node.label)")
        assert page.locator("img[src=x]").count() == 0
        shot(page, f"adversarial-{title.lower()}")
    guard.assert_clean()


def test_the_cut_line_and_every_figure_are_in_view_on_contexts(dashboard_url, guarded_page):
    page, guard = guarded_page
    visit(page, dashboard_url, "Overview")
    go_to(page, "Contexts")
    boxes = page.locator(".gcl-context pre")
    boxes.nth(1).wait_for(timeout=90_000)  # both panels; a loaded machine draws them after the heading
    assert boxes.count() >= 2
    for index in range(boxes.count()):
        # The cut line sits inside the text box's visible area without any scrolling.
        inside = boxes.nth(index).evaluate("""box => {
            const line = [...box.querySelectorAll('span')].find(span => span.textContent.startsWith('✂'));
            if (!line) return 'no cut line';
            const outer = box.getBoundingClientRect(), mark = line.getBoundingClientRect();
            return box.scrollTop === 0 && mark.top >= outer.top && mark.bottom <= outer.bottom;
        }""")
        assert inside is True, inside
    # No metric value is cut short with an ellipsis: each fits its own box.
    clipped = page.locator('[data-testid="stMetricValue"]').evaluate_all(
        "values => values.filter(value => value.scrollWidth > value.clientWidth + 1).map(value => value.innerText)")
    assert clipped == []
    shot(page, "contexts-cut-line-in-view")
    guard.assert_clean()
