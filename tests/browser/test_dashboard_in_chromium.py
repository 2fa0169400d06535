"""The dashboard in a real browser: every page draws, the budget moves the numbers, hostile labels stay text."""

from __future__ import annotations

import re

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


def test_every_page_draws_offline_without_errors(dashboard_url, guarded_page):
    page, guard = guarded_page
    visit(page, dashboard_url, "Overview")
    for path, title in PAGES.items():
        go_to(page, title)
        shot(page, f"page-{path}")
    guard.assert_clean()
