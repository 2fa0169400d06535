"""A real dashboard in Debian's Chromium: `streamlit run` on a free loopback port, a guarded browser page.

Every request that leaves the loopback interface is aborted and remembered, console errors and
dialogs are collected, and the test fails on any of them.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
LOCAL_SCHEMES = {"data", "blob", "about", "chrome-error", "file"}  # file: a downloaded report opened offline


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_healthy(url: str, process: subprocess.Popen, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.read().decode().strip() == "ok":
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"{url}/_stcore/health did not answer ok within {timeout:.0f} s")


@contextlib.contextmanager
def running_dashboard(environment: dict[str, str] | None = None, log_name: str = "streamlit.log"):
    """`streamlit run` on a free loopback port (with these extra environment variables); yields its URL."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), as .ci/run does")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (ARTIFACTS / log_name)
    ARTIFACTS.mkdir(exist_ok=True)
    with open(log, "w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "dashboard/app.py", "--server.headless", "true",
             "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, stdout=output, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(environment or {})})
        try:
            wait_until_healthy(url, process)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="session")
def dashboard_url():
    with running_dashboard() as url:
        yield url


@dataclass
class Guard:
    """What the page did that a test must fail on."""

    outside_requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.outside_requests == [], f"requests left the machine: {self.outside_requests}"
        assert self.dialogs == [], f"dialogs opened: {self.dialogs}"
        assert self.console_errors == [], f"console errors: {self.console_errors}"


def is_loopback(url: str) -> bool:
    parsed = urlparse(url)
    return parsed.scheme in LOCAL_SCHEMES or parsed.hostname in LOOPBACK


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def guarded_page(browser):
    """A page whose non-loopback requests are aborted and recorded, with console errors and dialogs."""
    guard = Guard()
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, service_workers="block")

    def route(request_route):
        if is_loopback(request_route.request.url):
            request_route.continue_()
        else:
            guard.outside_requests.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda message: guard.console_errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: guard.console_errors.append(str(error)))
    page.on("response", lambda response: guard.console_errors.append(f"HTTP {response.status} for {response.url}")
            if response.status >= 400 else None)
    page.on("request", lambda request: None if is_loopback(request.url) else guard.outside_requests.append(request.url))
    page.on("websocket", lambda socket_: None if is_loopback(socket_.url) else guard.outside_requests.append(socket_.url))

    def dialog(opened):
        guard.dialogs.append(f"{opened.type}: {opened.message}")
        opened.dismiss()

    page.on("dialog", dialog)
    yield page, guard
    context.close()
