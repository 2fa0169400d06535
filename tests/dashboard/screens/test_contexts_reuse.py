"""Contexts: a seed change under an ordering that ignores seeds reuses the renderings and their token counts."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

import core.pipeline
from core.formats import FORMATS
from tests.dashboard.conftest import on_page, started


def counted_renderings(monkeypatch) -> list[str]:
    """Format names of the renderings the dashboard tokenizes from now on (through core's accounted_rendering)."""
    names: list[str] = []
    original = core.pipeline.prefix_tokens

    def counting(rendering, *arguments, **options):
        names.append(rendering.format_name)
        return original(rendering, *arguments, **options)

    monkeypatch.setattr(core.pipeline, "prefix_tokens", counting)
    return names


def contexts(ordering: str) -> AppTest:
    return on_page(started(sample="online-boutique", ordering=ordering, formats=["pretty_json", "csv"]), "contexts")


def another_seed(app: AppTest) -> None:
    box = app.sidebar.multiselect(key="seeds")
    extra = next(option for option in box.options if option not in box.value)
    box.set_value([*box.value, extra]).run()
    assert not app.exception, [item.value for item in app.exception]


def test_seeds_do_not_recount_under_canonical_order(monkeypatch):
    app = contexts("canonical")
    names = counted_renderings(monkeypatch)
    another_seed(app)
    assert not FORMATS.get("pretty_json").uses_hops and "pretty_json" not in names and "csv" not in names, names


def test_seeds_recount_under_hop_tiers(monkeypatch):
    app = contexts("hop_tiers")
    names = counted_renderings(monkeypatch)
    another_seed(app)
    assert "pretty_json" in names and "csv" in names, names


def test_the_shown_pages_token_ends_equal_the_whole_texts():
    from core.tokens import TOKENIZERS
    from core.tokens.token_spans import token_ends
    from dashboard.context_panel import window_token_ends
    from dashboard.views.context_html import page_bounds

    text = "".join(f'{{"id": "svc-{index:04}", "type": "service", "label": "Service № {index}"}},\n'
                   for index in range(600))
    whole = token_ends(TOKENIZERS.get("o200k_base"), text)
    for start, end in page_bounds(text, 6000):
        shown = [offset for offset in window_token_ends("test", text, "o200k_base", (start, end)) if start < offset <= end]
        assert shown == [offset for offset in whole if start < offset <= end]
