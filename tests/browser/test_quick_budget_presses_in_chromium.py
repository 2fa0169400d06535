"""Quick budget presses: the last one is what the page shows, the URL holds and the next full run keeps.

Three presses quicker than the fragment's reruns used to lose the last two under load (624 shown, 622 kept
after the next full run): the browser sent the exact-number box's old value with each press, which the
server took for a change of its own (dashboard.state.mirrored_controls now tells them apart).
"""

from __future__ import annotations

import pytest

from core.analysis.session_defaults import complete_tokens, inspected_budget
from core.io.samples import load_sample
from tests.browser.conftest import ARTIFACTS
from tests.browser.session import (
    full_runs,
    metric_values,
    open_page,
    settle,
    sidebar_budget,
    url_parameters,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

PRESSES = 5


def exact_budget(page) -> int:
    box = page.locator('[data-testid="stNumberInput"]').filter(has_text="Exact budget").first
    return int(box.locator("input").input_value().replace(",", ""))


def shown(page) -> tuple[int, int, list[str] | None]:
    """The slider, the exact number and the URL's budget."""
    return sidebar_budget(page), exact_budget(page), url_parameters(page).get("budget")


def everything_shows(page, budget: int) -> bool:
    return shown(page) == (budget, budget, [str(budget)])


def wait_for_budget(page, budget: int) -> None:
    try:
        wait_until(page, lambda: everything_shows(page, budget))
    except TimeoutError:
        pytest.fail(f"expected {budget} in the slider, the number and the URL; they show {shown(page)}")


@pytest.mark.parametrize("title", ["Contexts", "Graph"])
def test_quick_presses_keep_the_last_one(dashboard_url, guarded_page, title):
    page, guard = guarded_page
    start = inspected_budget(complete_tokens(load_sample("nvidia-jetson"), "o200k_base"), ("pretty_json", "compact_json"))
    page.goto(f"{dashboard_url}/?sample=nvidia-jetson", wait_until="domcontentloaded")
    page.locator("h1", has_text="Overview").first.wait_for(timeout=90_000)
    settle(page)
    open_page(page, title)
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Token budget").first
    slider.wait_for(timeout=90_000)
    assert sidebar_budget(page) == start
    thumb = slider.locator("input[type=range]").first
    thumb.focus()
    for _ in range(PRESSES):
        thumb.press("ArrowRight")  # no waiting: each press is sent before the last one's rerun has drawn
    wait_for_budget(page, start + PRESSES)
    page.wait_for_timeout(1_500)  # late redraws must not pull anything back
    settle(page)
    assert shown(page) == (start + PRESSES, start + PRESSES, [str(start + PRESSES)])
    if title == "Contexts":
        assert all(value.endswith(f"/ {start + PRESSES:,}") for value in metric_values(page)["Tokens used / budget"])
    before = full_runs(page)
    page.locator('[data-testid="stSidebar"] input[role="combobox"][aria-label="Ordering"]').first.click()
    page.keyboard.type("hop_tiers")
    page.keyboard.press("Enter")
    wait_until(page, lambda: full_runs(page) > before)
    page.wait_for_timeout(500)
    settle(page)
    assert shown(page) == (start + PRESSES, start + PRESSES, [str(start + PRESSES)])
    page.screenshot(path=str(ARTIFACTS / f"quick-budget-presses-{title.lower()}.png"))
    guard.assert_clean()
