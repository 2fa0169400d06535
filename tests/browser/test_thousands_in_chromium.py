"""Every page writes its figures with thousands separators (1,234 tokens, not 1234), read in Chromium.

The text a reader sees on each page (metrics, captions, markdown, slider values, chart titles) is
searched for a run of four or more digits that is not part of a name (svc-noise-0016, o200k_base) and
not inside the rendered context text, which is the graph's own text.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.session import open_page, settle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

PAGES = ("Overview", "Contexts", "Graph", "Walkthrough", "Advisor", "Token anatomy", "Budget survival", "Orderings",
         "Pareto", "Question set", "Exports", "Model answers")
BARE = re.compile(r"(?<![\w.\-:/#|@,])\d{4,}(?![\w\-])")
# The page's visible text, without the graph's own text (the context panes, code blocks, frames).
VISIBLE_TEXT = """() => {
  const main = document.querySelector('[data-testid=stMain]').cloneNode(true);
  main.querySelectorAll('.context-text, pre, code, iframe, [data-testid=stDataFrame] canvas').forEach(e => e.remove());
  const sidebar = document.querySelector('[data-testid=stSidebar] [data-testid=stSlider]');
  return main.innerText + '\\n' + (sidebar ? sidebar.innerText : '');
}"""


def bare_numbers(text: str) -> list[str]:
    return BARE.findall(text)


def test_the_pattern_finds_bare_figures_and_leaves_names_alone():
    assert bare_numbers("3539920 tokens · budget 1,406 · svc-noise-0016 · o200k_base · 2,048") == ["3539920"]


def test_every_page_writes_thousands_with_separators(dashboard_url, guarded_page):
    page, guard = guarded_page
    # The reference sample with budgets in the thousands and the tens of thousands.
    page.goto(f"{dashboard_url}/?budgets=1000,2500,12000&budget=2500", wait_until="domcontentloaded")
    page.locator("h1", has_text="Overview").first.wait_for(timeout=120_000)
    settle(page)
    found = {}
    for title in PAGES:
        open_page(page, title)
        settle(page)
        bare = bare_numbers(page.evaluate(VISIBLE_TEXT))
        if bare:
            found[title] = bare
            page.screenshot(path=str(ARTIFACTS / f"bare-numbers-{title.lower().replace(' ', '-')}.png"))
    assert found == {}
    guard.assert_clean()
