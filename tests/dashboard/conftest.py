"""Shared AppTest helpers for every dashboard test: start the app (with URL parameters), open a page, read it.

Imported by name (`from tests.dashboard.conftest import started, on_page`) so each test reads as an example.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.falkordb_server import falkordb_server  # noqa: F401 - the session's real FalkorDB server

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py")
TIMEOUT = 300  # seconds per run: the first run of a page sweeps, and four engineers share two cores


def app_test(**query_params) -> AppTest:
    """The app, not yet run, with these URL parameters (as a shared link would open it)."""
    app = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in query_params.items():
        app.query_params[key] = value
    return app


def started(**query_params) -> AppTest:
    """The app after its first run with these URL parameters."""
    return app_test(**query_params).run()


def on_page(app: AppTest, page: str) -> AppTest:
    """Switch to `screens/<page>.py`, run, and fail with the page's exceptions if it raised any."""
    app.switch_page(f"screens/{page}.py").run()
    assert not app.exception, [item.value for item in app.exception]
    return app


def with_every_tokenizer(app: AppTest) -> AppTest:
    """The Overview after the reader asked it to count every format with every tokenizer (no button to press when
    an earlier test's session already counted this graph: the counts are kept for the server)."""
    for item in app.button:
        if item.label == "Count with every tokenizer":
            item.click().run()
            break
    assert not app.exception, [item.value for item in app.exception]
    return app


def forget_measured_on_request() -> None:
    """Let go of what the Overview measured when asked, so that a test sees it unasked again."""
    from dashboard.measure_on_request import _rows

    _rows.clear()


def unescaped(markdown: str) -> str:
    """Markdown as the reader sees it (the app escapes Markdown characters in graph text)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def metric(app: AppTest, label: str) -> list[str]:
    """The values of every metric with this label, in page order."""
    return [item.value for item in app.metric if item.label == label]
