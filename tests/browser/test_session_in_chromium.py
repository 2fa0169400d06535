"""One session in a real browser while the graph changes: a sample switch, an upload, a click before the sidebar
drew. Seeds, query, its parameters and the budget take the new graph's defaults, and the URL follows.

AppTest cannot see this (it never holds the browser's stale widget values), so these run in Chromium.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from core.analysis.session_defaults import complete_tokens, graph_defaults, inspected_budget
from core.io import load_graph_file
from core.io.samples import get_sample, load_sample
from tests.browser.conftest import ARTIFACTS
from tests.browser.session import (
    chosen,
    open_page,
    pick_sample,
    select_value,
    settle,
    sidebar_budget,
    url_parameters,
    wait_for_metrics,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SHOWN = ("pretty_json", "compact_json")  # the formats a fresh session shows
UPLOAD = Path(__file__).resolve().parents[2] / "sample_graphs" / "tinkerpop-modern" / "tinkerpop-modern.xml"


def expected_budget(graph) -> int:
    return inspected_budget(complete_tokens(graph, "o200k_base"), SHOWN)


def records_kept(metrics: dict[str, list[str]]) -> list[int]:
    return [int(value.split("/")[0].replace(",", "")) for value in metrics["Records kept / total"]]


def test_switching_the_sample_starts_from_its_defaults_and_the_url_follows(dashboard_url, guarded_page):
    page, guard = guarded_page
    page.goto(dashboard_url, wait_until="domcontentloaded")
    page.locator("h1", has_text="Overview").first.wait_for(timeout=90_000)
    settle(page)
    assert chosen(page, "Seed nodes") == ["db-identity"]
    pick_sample(page, "online-boutique")
    graph, sample = load_sample("online-boutique"), get_sample("online-boutique")
    defaults = graph_defaults(graph, sample)
    budget = expected_budget(graph)
    assert chosen(page, "Seed nodes") == list(defaults.seeds) == ["cartservice"]
    assert select_value(page, "Query") == "impact"
    assert select_value(page, "Relation") == "calls"
    assert sidebar_budget(page) == budget
    open_page(page, "Contexts")
    metrics = wait_for_metrics(page)
    assert all(kept > 0 for kept in records_kept(metrics)), metrics
    parameters = url_parameters(page)
    assert parameters["sample"] == ["online-boutique"] and parameters["budget"] == [str(budget)]
    assert "seeds" not in parameters and "query" not in parameters  # the defaults are not written
    page.screenshot(path=str(ARTIFACTS / "session-sample-switch.png"))
    # The URL alone reproduces the view (opened at the base path: a deep link probes /contexts/_stcore first)
    page.goto(f"{dashboard_url}/?{urlparse(page.url).query}", wait_until="domcontentloaded")
    page.locator("h1", has_text="Overview").first.wait_for(timeout=90_000)
    settle(page)
    open_page(page, "Contexts")
    assert wait_for_metrics(page) == metrics
    guard.assert_clean()


def test_an_upload_starts_from_the_uploaded_graphs_defaults(dashboard_url, guarded_page):
    page, guard = guarded_page
    page.goto(f"{dashboard_url}/?sample=nvidia-jetson", wait_until="domcontentloaded")
    page.locator("h1", has_text="Overview").first.wait_for(timeout=90_000)
    settle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_role("radio", name="upload", exact=True).click()
    settle(page)
    sidebar.locator('[data-testid="stFileUploader"] input[type=file]').first.set_input_files(str(UPLOAD))
    graph = load_graph_file(UPLOAD)
    defaults = graph_defaults(graph, None)
    wait_until(page, lambda: "tinkerpop-modern.xml" in page.locator('[data-testid="stSidebar"]').inner_text())
    assert chosen(page, "Seed nodes") == list(defaults.seeds)
    assert select_value(page, "Query") == defaults.query.name
    assert select_value(page, "Start") == defaults.seeds[0]
    assert sidebar_budget(page) == expected_budget(graph)
    open_page(page, "Contexts")
    assert all(kept > 0 for kept in records_kept(wait_for_metrics(page)))
    assert "seeds" not in url_parameters(page)
    page.screenshot(path=str(ARTIFACTS / "session-upload.png"))
    guard.assert_clean()


def test_a_page_opened_before_the_sidebar_drew_keeps_the_urls_graph(dashboard_url, guarded_page):
    page, guard = guarded_page
    page.goto(f"{dashboard_url}/?sample=nvidia-jetson", wait_until="domcontentloaded")
    page.locator('[data-testid="stSidebarNav"] a', has_text="Contexts").first.click()  # as early as it exists
    page.locator("h1", has_text="Contexts").first.wait_for(timeout=90_000)
    settle(page)
    graph = load_sample("nvidia-jetson")
    assert url_parameters(page)["sample"] == ["nvidia-jetson"]
    assert chosen(page, "Seed nodes") == ["12"]
    assert sidebar_budget(page) == expected_budget(graph)
    assert all(kept > 0 for kept in records_kept(wait_for_metrics(page)))
    guard.assert_clean()
