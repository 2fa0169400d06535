"""The shared sidebar's controls as a link opens them."""

from __future__ import annotations

from tests.dashboard.conftest import started


def test_a_link_naming_a_lossy_format_shows_it_and_says_it_is_lossy():
    # The bound control accepts in the URL what it shows; it showed "toon (lossy)", so `formats=toon` was refused
    app = started(formats=["toon", "yaml", "turtle"])
    assert app.sidebar.multiselect(key="formats").value == ["toon", "yaml", "turtle"]
    assert list(app.query_params["formats"]) == ["toon", "yaml", "turtle"]
    assert any("Lossy" in item.value and "toon" in item.value for item in app.sidebar.caption)
