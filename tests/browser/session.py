"""Helpers for driving one dashboard session: wait for a script run to end, read the sidebar's values."""

from __future__ import annotations

import contextlib
import time
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import TimeoutError as PlaywrightTimeout

RUN_TIMEOUT = 120_000


def settle(page, timeout: float = RUN_TIMEOUT) -> None:
    """Wait until the app has started the run an action asked for (if it did) and finished it."""
    app = page.locator('[data-testid="stApp"]')
    app.wait_for(timeout=timeout)
    with contextlib.suppress(PlaywrightTimeout):  # the run may have ended before we looked
        page.wait_for_function("() => document.querySelector('[data-testid=stApp]')"
                               ".getAttribute('data-test-script-state') !== 'notRunning'", timeout=1_500)
    page.wait_for_function("() => document.querySelector('[data-testid=stApp]')"
                           ".getAttribute('data-test-script-state') === 'notRunning'", timeout=timeout)
    page.wait_for_selector('[data-testid="stSpinner"]', state="detached", timeout=timeout)


def sidebar_budget(page) -> int:
    """The inspected budget as its slider shows it (in the sidebar, or on a page that draws it itself)."""
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Token budget").first
    return int(slider.locator('[data-testid="stSliderThumbValue"]').inner_text().replace(",", ""))


def full_runs(page) -> int:
    """How many full script runs the session has made (dashboard/run_marker.py; fragment reruns do not count)."""
    return int(page.locator(".full-run-count").first.get_attribute("data-runs"))


def chosen(page, label: str) -> list[str]:
    """The values a sidebar select box or multiselect shows under `label`."""
    widget = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"], '
                          '[data-testid="stSidebar"] [data-testid="stMultiSelect"]').filter(has_text=label).first
    text = widget.inner_text().split("\n")
    return [line.strip() for line in text[1:] if line.strip() and line.strip() not in ("×",)]


def url_parameters(page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def pick_sample(page, name: str) -> None:
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').filter(has_text="Sample graph").click()
    page.get_by_role("option", name=name, exact=True).click()
    settle(page)


def open_page(page, title: str) -> None:
    page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
    page.locator("h1", has_text=title).first.wait_for(timeout=RUN_TIMEOUT)
    settle(page)


def metric_values(page) -> dict[str, list[str]]:
    """Every metric on the page, by label."""
    values: dict[str, list[str]] = {}
    for item in page.locator('[data-testid="stMetric"]').all():
        label = item.locator('[data-testid="stMetricLabel"]').inner_text().strip()
        values.setdefault(label, []).append(item.locator('[data-testid="stMetricValue"]').inner_text().strip())
    return values


def select_value(page, label: str) -> str:
    """The option a sidebar select box shows under `label`."""
    return page.locator(f'[data-testid="stSidebar"] input[role="combobox"][aria-label="{label}"]').first.input_value()


def wait_for_metrics(page, count: int = 10) -> dict[str, list[str]]:
    """The metrics once `count` of them are drawn (two Contexts panels hold ten)."""
    page.wait_for_function(f"() => document.querySelectorAll('[data-testid=stMetricValue]').length >= {count}",
                           timeout=RUN_TIMEOUT)
    return metric_values(page)


def wait_until(page, condition, timeout: float = 60.0) -> None:
    """Poll `condition()` (reading the page) until it holds, then let the run finish."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the page never reached the expected state")
        page.wait_for_timeout(250)
    settle(page)


def add_format_on_contexts(page, name: str) -> None:
    """Type a format's name into the Contexts page's formats box and pick it."""
    box = page.locator('[data-testid="stMain"] [data-testid="stMultiSelect"]').filter(has_text="Formats (up to 4)")
    box.first.locator("input").first.click()
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
