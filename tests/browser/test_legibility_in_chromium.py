"""Issue 47's legibility list at 1280 px in Chromium: each fixed page screenshotted, and what the DOM can say checked.

No label is cut short ("…" or text wider than its box), no chart titles an axis with a raw column name, the
headings of four Contexts panels are the same height, the Overview's main table comes before cost stability, the
Model answers facets run 0-100%, the Graph page labels only where a label has room, and the walkthrough marks the
step it shows. Screenshots go to test-artifacts/legibility-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, ROOT, is_loopback
from tests.browser.session import RUN_TIMEOUT, settle

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

WIDTH = 1280
FOUR_FORMATS = "formats=pretty_json&formats=compact_json&formats=csv&formats=semantic_text"
SERVICES_300 = "source=generator&generator=services&services_services=290&services_noise_edges=400"
RAW_NAMES = ("context_length", "exact_match", "measured_tokens", "budget_tokens", "latency_ms")

# Texts drawn wider than their box (a label Streamlit ends in "…"), among widget labels and buttons.
CUT_LABELS = """() => [...document.querySelectorAll(
    '[data-testid=stMain] [data-testid=stWidgetLabel] p, [data-testid=stMain] button p')]
  .filter((element) => element.offsetParent !== null
          && (element.scrollWidth > element.clientWidth + 1 || element.innerText.includes('…')))
  .map((element) => element.innerText)"""
# Every plotly chart's title and axis titles, and its y ranges.
CHART_TITLES = """() => [...document.querySelectorAll('.js-plotly-plot')].map((chart) => {
  const layout = chart._fullLayout || {};
  const axes = Object.keys(layout).filter((key) => /^[xy]axis\\d*$/.test(key));
  return {title: (layout.title || {}).text || '',
          axes: axes.map((key) => ((layout[key].title || {}).text) || ''),
          y: axes.filter((key) => key.startsWith('y')).map((key) => layout[key].range)};
})"""


@pytest.fixture
def page_1280(browser):
    """A page 1280 px wide whose requests off the machine are aborted and recorded."""
    outside: list[str] = []
    context = browser.new_context(viewport={"width": WIDTH, "height": 1000}, service_workers="block")

    def route(request_route):
        if is_loopback(request_route.request.url):
            request_route.continue_()
        else:
            outside.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    yield page
    context.close()
    assert outside == [], f"requests left the machine: {outside}"


def opened(page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.locator("h1").first.wait_for(timeout=RUN_TIMEOUT)
    settle(page, RUN_TIMEOUT * 2)
    page.wait_for_timeout(1_000)
    settle(page, RUN_TIMEOUT * 2)
    assert not page.locator('[data-testid="stException"]').count()


def shot(page, name: str) -> None:
    """The whole page at 1280 px: Streamlit scrolls its main area inside the window, so the window is made as
    tall as that area (up to 12,000 px) for the screenshot, then put back."""
    ARTIFACTS.mkdir(exist_ok=True)
    height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": WIDTH, "height": min(max(height, 1000), 12_000)})
    page.wait_for_timeout(1_000)
    page.screenshot(path=str(ARTIFACTS / f"legibility-{name}.png"))
    page.set_viewport_size({"width": WIDTH, "height": 1000})


def assert_no_cut_labels(page) -> None:
    assert page.evaluate(CUT_LABELS) == []


def test_overview_draws_its_table_first_and_marks_lossy_formats(dashboard_url, page_1280):
    page = page_1280
    opened(page, f"{dashboard_url}/")
    expander = page.locator('[data-testid="stExpander"]').filter(has_text="Cost stability")
    assert expander.count() == 1 and page.get_by_text("relabel max/min").count() == 0  # on request only
    table = page.locator('[data-testid="stDataFrame"]').first.bounding_box()
    assert table["y"] < expander.bounding_box()["y"]  # the main table comes first
    page.get_by_role("button", name="Count with every tokenizer").click()  # the heatmap is counted when asked
    page.get_by_text("Format ranking per tokenizer").first.wait_for(timeout=RUN_TIMEOUT)
    ticks = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')].map((chart) => "
                          "(chart._fullLayout.yaxis || {}).ticktext || [])")
    assert any(any("(lossy)" in str(tick) for tick in chart) for chart in ticks)  # the heatmap marks lossy formats
    assert_no_cut_labels(page)
    sidebar = page.evaluate("() => document.querySelector('[data-testid=stSidebarContent]').scrollHeight")
    assert sidebar < 3_000  # 3,143 px before the tokenizer and what fits were folded into an expander
    shot(page, "overview")
    expander.locator("summary").click()
    page.locator('[data-testid="stDataFrame"]').filter(has_text="relabel max/min").wait_for(timeout=RUN_TIMEOUT)
    settle(page, RUN_TIMEOUT * 2)
    shot(page, "overview-cost-stability")


def test_four_contexts_panels_have_headings_of_one_height(dashboard_url, page_1280):
    page = page_1280
    opened(page, f"{dashboard_url}/contexts?{FOUR_FORMATS}&policy=sections")
    page.locator('[data-testid="stColumn"] h3').nth(3).wait_for(timeout=RUN_TIMEOUT)
    headings = page.evaluate("() => [...document.querySelectorAll('[data-testid=stColumn] h3')].map((heading) => "
                             "[heading.innerText, heading.getBoundingClientRect().height, "
                             "heading.getBoundingClientRect().top])")
    assert len(headings) == 4 and len({round(height) for _, height, _ in headings}) == 1, headings
    assert len({round(top) for _, _, top in headings}) == 1, headings
    assert "csv · sections" in [text.replace("\n", " ") for text, _, _ in headings]
    sections = page.get_by_text("edge-section tokens").first.inner_text()
    assert "%" in sections and ".0%" not in sections
    assert_no_cut_labels(page)
    shot(page, "contexts-four-formats")


def test_token_anatomy_and_exports_labels_are_whole(dashboard_url, page_1280):
    page = page_1280
    opened(page, f"{dashboard_url}/token-anatomy")
    page.get_by_text("The whole request").wait_for(timeout=RUN_TIMEOUT)
    assert page.get_by_text("Truncation marker", exact=True).is_visible()
    template = page.locator('[data-testid="stMarkdownContainer"] code').filter(has_text="chat").first.inner_text()
    assert "\\" not in template
    assert_no_cut_labels(page)
    shot(page, "token-anatomy")
    opened(page, f"{dashboard_url}/exports")
    for label in ("Budget survival chart (HTML)", "Token anatomy chart (HTML)", "One-page report (HTML)"):
        assert page.get_by_role("button", name=label).is_visible()
    assert_no_cut_labels(page)
    shot(page, "exports")


@pytest.fixture
def run_store_left_as_found():
    """The oracle run writes the server's run store (in the checkout); one this test created is removed after."""
    stores = [ROOT / name for name in ("evaluation-runs.sqlite", "evaluation-runs.sqlite-wal",
                                       "evaluation-runs.sqlite-shm")]
    existed = {store for store in stores if store.exists()}
    yield
    for store in stores:
        if store not in existed:
            store.unlink(missing_ok=True)


def test_model_answers_charts_title_their_axes_in_words_and_shares_run_0_to_100(dashboard_url, page_1280,
                                                                                run_store_left_as_found):
    page = page_1280
    opened(page, f"{dashboard_url}/model-answers")
    page.get_by_text("Oracle reader").click()
    settle(page)
    budgets = page.locator('input[aria-label="Budgets (tokens)"]')
    budgets.fill("128, 2000")
    budgets.press("Enter")
    settle(page)
    page.get_by_role("button", name="Run", exact=True).click()
    page.locator('[data-testid="stPlotlyChart"] .main-svg').nth(2).wait_for(timeout=RUN_TIMEOUT)
    settle(page, RUN_TIMEOUT * 2)
    charts = page.evaluate(CHART_TITLES)
    assert charts and not [chart for chart in charts
                           if any(name in " ".join([chart["title"], *chart["axes"]]) for name in RAW_NAMES)], charts
    shares = [chart for chart in charts if "exact match" in chart["axes"]]
    assert shares and all(low >= -0.1 and high <= 1.1 for chart in shares for low, high in chart["y"]), shares
    assert_no_cut_labels(page)
    shot(page, "model-answers")


def test_the_graph_page_labels_a_300_node_graph_only_where_labels_have_room(dashboard_url, page_1280):
    page = page_1280
    opened(page, f"{dashboard_url}/graph?{SERVICES_300}")
    caption = page.get_by_text("nodes are labelled").first.inner_text()
    labelled, total = (int(word.replace(",", "")) for word in caption.split(" nodes are labelled")[0]
                       .split(". ")[-1].split(" of the "))
    assert total == 293 and 1 < labelled < 60
    page.locator("iframe").first.wait_for(timeout=RUN_TIMEOUT)
    page.wait_for_timeout(3_000)  # the picture draws inside its sandboxed frame
    shot(page, "graph-300-nodes")


def test_the_walkthrough_marks_the_step_it_shows(dashboard_url, page_1280):
    page = page_1280
    opened(page, f"{dashboard_url}/walkthrough")
    page.get_by_role("button", name="Show me").nth(1).click()
    settle(page, RUN_TIMEOUT)
    page.get_by_text("shown below").first.wait_for(timeout=RUN_TIMEOUT)
    steps = page.locator('[data-testid="stVerticalBlockBorderWrapper"], [data-testid="stVerticalBlock"]') \
        .filter(has_text="shown below").filter(has_text="2. Record-aware")
    assert steps.count() >= 1 and page.get_by_text("shown below").count() == 1
    shot(page, "walkthrough")
