"""Issue 28 at 1,280 px in Chromium: figures drawn whole, a graph that holds still, the inspected budget marked,
the Overview's highlighted row in view, click-throughs with a way back, a truthful walkthrough after another
sample, and an upload whose columns can be mapped."""

from __future__ import annotations

import time

import pytest

from core.formats import FORMATS
from core.io.samples import default_sample, load_sample, sample_names
from core.number_style import share
from core.retrieval.seeds import Seeds
from dashboard.state.teaching import walkthrough_plan
from dashboard.views.charts import INSPECTED_COLOUR
from tests.browser.conftest import ARTIFACTS, is_loopback
from tests.browser.session import chosen, open_page, settle, url_parameters, wait_for_metrics

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

WIDTH = 1280


@pytest.fixture
def narrow_page(browser):
    """A guarded page (no request leaves the machine, no console error) 1,280 px wide."""
    outside, errors = [], []
    context = browser.new_context(viewport={"width": WIDTH, "height": 1000}, service_workers="block")
    context.route("**/*", lambda route: route.continue_() if is_loopback(route.request.url)
                  else (outside.append(route.request.url), route.abort()))
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert outside == [] and errors == []


def start(page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.locator("h1").first.wait_for(timeout=120_000)
    settle(page)


def type_budget(page, budget: int) -> None:
    box = page.locator('[data-testid="stNumberInput"]').filter(has_text="Exact budget").first.locator("input")
    box.fill(str(budget))
    box.press("Enter")
    settle(page)


def cut_short(page) -> list[str]:
    """Every metric value the page draws narrower than its text (an ellipsis, or text clipped by its box)."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid=stMetricValue]')].flatMap(value =>
        [value, ...value.querySelectorAll('*')].filter(element => element.scrollWidth > element.clientWidth + 1
            || getComputedStyle(element).textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth)
        .map(element => value.innerText))""")


def test_four_contexts_panels_draw_every_figure_whole_at_1280_px(dashboard_url, narrow_page):
    page = narrow_page
    start(page, f"{dashboard_url}/contexts?formats=pretty_json&formats=compact_json&formats=csv&formats=local_ids")
    metrics = wait_for_metrics(page, 28)
    assert len(metrics["Evidence position"]) == 4
    assert cut_short(page) == []
    assert all("…" not in value for values in metrics.values() for value in values)
    assert all(value.endswith("%") for value in metrics["Traversal accuracy"])  # never "0" beside "45%"
    page.screenshot(path=str(ARTIFACTS / "verdicts-contexts-four-panels.png"))


def node_positions(page) -> dict:
    frame = next(frame for frame in page.frames if frame.evaluate("() => typeof network !== 'undefined'"))
    return frame.evaluate("() => network.getPositions()")


def test_a_budget_step_recolours_the_graph_and_moves_no_node(dashboard_url, narrow_page):
    page = narrow_page
    start(page, dashboard_url)
    open_page(page, "Graph")
    page.wait_for_timeout(2_000)
    before = node_positions(page)
    type_budget(page, 2_500)
    page.wait_for_timeout(2_000)
    after = node_positions(page)
    assert before and before == after
    page.screenshot(path=str(ARTIFACTS / "verdicts-graph-after-budget.png"))


def test_budget_survival_marks_the_inspected_budget_and_the_overview_shows_its_highlighted_row(dashboard_url,
                                                                                                narrow_page):
    page = narrow_page
    start(page, f"{dashboard_url}/?sample=nvidia-jetson")
    table = page.locator('[data-testid="stDataFrame"]').first
    table.wait_for(timeout=120_000)
    rows = len(FORMATS.names())
    assert table.bounding_box()["height"] >= 35 * (rows + 1)  # every row in view, the highlighted one too
    open_page(page, "Budget survival")
    page.locator('[data-testid="stPlotlyChart"] .main-svg').first.wait_for(timeout=120_000)
    budget = int(page.locator('[data-testid="stNumberInput"]').filter(has_text="Exact budget").first
                 .locator("input").input_value().replace(",", ""))
    shapes = page.evaluate("() => document.querySelector('.js-plotly-plot').layout.shapes.map(s => [s.x0, s.line.color, s.line.dash])")
    assert [budget, INSPECTED_COLOUR, "solid"] in shapes
    page.screenshot(path=str(ARTIFACTS / "verdicts-budget-survival.png"))


def test_a_pareto_click_opens_the_cut_and_the_way_back_restores_the_selection(dashboard_url, narrow_page):
    page = narrow_page
    start(page, f"{dashboard_url}/?formats=toon&formats=yaml&formats=turtle")  # toon is lossy: named, not labelled
    assert chosen(page, "Formats") == ["toon", "yaml", "turtle"]
    open_page(page, "Pareto")
    page.locator('[data-testid="stPlotlyChart"] .scatterlayer .point').first.click(force=True)
    page.locator("h1", has_text="Contexts").first.wait_for(timeout=120_000)
    settle(page)
    banner = page.get_by_text("Showing a cut opened from Pareto").first
    banner.wait_for(timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "verdicts-pareto-click-banner.png"))
    page.get_by_role("button", name="Back to your selection on Pareto").click()
    page.locator("h1", has_text="Pareto").first.wait_for(timeout=120_000)
    settle(page)
    assert chosen(page, "Formats") == ["toon", "yaml", "turtle"]
    assert url_parameters(page)["formats"] == ["toon", "yaml", "turtle"]
    assert not page.get_by_text("Showing a cut opened from").count()


def test_the_walkthrough_panel_equals_its_text_after_another_sample(dashboard_url, narrow_page):
    from dashboard.screens import walkthrough

    page = narrow_page
    other = next(name for name in sample_names() if name != default_sample().name)
    start(page, f"{dashboard_url}/?sample={other}")
    open_page(page, "Walkthrough")
    plan = walkthrough_plan(load_sample(default_sample().name), walkthrough.QUERY, Seeds((walkthrough.SEED,)),
                            FORMATS.names()[0], "o200k_base")
    for number, figures in enumerate(plan.steps, start=1):
        page.get_by_role("button", name="Show me").nth(number - 1).click()
        settle(page)
        page.get_by_text(f"Step {number}, as its sentence states").first.wait_for(timeout=120_000)
        metrics = wait_for_metrics(page, 7)
        assert metrics["Evidence survival"] == [share(figures.evidence_survival)]
        assert metrics["Traversal accuracy"] == [share(figures.traversal_accuracy)]
    page.screenshot(path=str(ARTIFACTS / "verdicts-walkthrough-after-other-sample.png"))


def test_a_from_to_csv_is_explained_in_the_forms_words_and_loads_once_its_columns_are_mapped(dashboard_url,
                                                                                             narrow_page, tmp_path):
    page = narrow_page
    upload = tmp_path / "edges.csv"
    upload.write_text("from,to,kind\napi,auth,calls\nauth,db,reads\nweb,api,calls\n", encoding="utf-8")
    start(page, dashboard_url)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_role("radio", name="upload", exact=True).click()
    settle(page)
    sidebar.locator('[data-testid="stFileUploader"] input[type=file]').first.set_input_files(str(upload))
    error = page.locator('[data-testid="stAlert"]').filter(has_text="could not be used").first
    error.wait_for(timeout=120_000)
    text = error.inner_text()
    assert "File options → Source column" in text and "--" not in text and "pretty_json" not in text
    sidebar.get_by_text("File options").first.click()
    for label, column in (("Source column", "from"), ("Target column", "to"), ("Relation column", "kind")):
        field = sidebar.locator('[data-testid="stTextInput"]').filter(has_text=label).first.locator("input")
        field.fill(column)
        field.press("Enter")
        settle(page)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and "upload: edges.csv" not in page.locator("main").inner_text():
        page.wait_for_timeout(500)
    assert "upload: edges.csv · 4 nodes · 3 edges" in page.locator("main").inner_text()
    page.screenshot(path=str(ARTIFACTS / "verdicts-upload-mapped.png"))
