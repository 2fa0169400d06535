"""`graph-context-lab dashboard`: loopback from any folder, and an app that refuses the network unless asked by name."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from core.commands.dashboard import ALLOW_REMOTE, LOOPBACK, is_loopback, remote_refusal, streamlit_command
from tests.browser.conftest import free_port, wait_until_healthy
from tests.process_sockets import loopback, sockets

ROOT = Path(__file__).resolve().parents[3]
COMMAND = Path(sys.executable).with_name("graph-context-lab")


def test_started_from_the_root_folder_it_listens_on_loopback_only_and_looks_up_nothing(tmp_path):
    port = free_port()
    log = tmp_path / "dashboard.log"
    with open(log, "w") as output:
        server = subprocess.Popen([str(COMMAND), "dashboard", "--port", str(port)], cwd="/", stdout=output,
                                  stderr=subprocess.STDOUT)
        try:
            process = psutil.Process(server.pid)  # the command becomes Streamlit (exec): the same process
            wait_until_healthy(f"http://127.0.0.1:{port}", server)
            seen = []
            for _ in range(20):  # a while after start, when a usage or IP check would go out
                seen += sockets(process)
                time.sleep(0.1)
        finally:
            server.terminate()
            server.wait(timeout=30)
    listening = {(item.laddr.ip, item.laddr.port) for item in seen if item.status == psutil.CONN_LISTEN}
    assert (LOOPBACK, port) in listening and all(loopback(address) for address, _ in listening), listening
    assert {item.raddr for item in seen if item.raddr and not loopback(item.raddr.ip)} == set()
    text = log.read_text()
    assert f"URL: http://127.0.0.1:{port}" in text and "Traceback" not in text, text
    assert "Network URL" not in text and "External URL" not in text


def test_a_network_address_needs_allow_remote_by_name(tmp_path):
    done = subprocess.run([str(COMMAND), "dashboard", "--address", "0.0.0.0"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "0.0.0.0 is not a loopback address" in done.stderr
    assert "Fix: leave --address out" in done.stderr and "--allow-remote" in done.stderr


def settings(**given) -> argparse.Namespace:
    return argparse.Namespace(**{"port": 8501, "headless": True, "address": LOOPBACK, "allow_remote": False, **given})


def test_the_streamlit_command_carries_the_projects_settings_and_loopback():
    command = streamlit_command(settings(port=9000, headless=False))
    flags = dict(zip(command[5::2], command[6::2]))
    assert command[1:4] == ["-m", "streamlit", "run"] and command[4] == str(ROOT / "dashboard" / "app.py")
    assert flags["--server.address"] == flags["--browser.serverAddress"] == LOOPBACK
    assert flags["--browser.gatherUsageStats"] == "false" and flags["--server.port"] == "9000"
    assert flags["--server.headless"] == "false"
    assert flags["--server.maxUploadSize"] == "20" and flags["--theme.base"] == "light"  # .streamlit/config.toml


@pytest.mark.parametrize("address, allowed", [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True),
                                              ("localhost", True), ("unix:///tmp/lab.sock", True), ("", False),
                                              (None, False), ("0.0.0.0", False), ("192.0.2.7", False),
                                              ("lab.example.org", False)])
def test_only_loopback_is_served_unasked(address, allowed):
    assert is_loopback(address) is allowed
    refusal = remote_refusal(address, {})
    assert (refusal is None) is allowed
    if refusal:
        assert "does not serve" in refusal and "(at Streamlit's server.address" in refusal
        assert "Fix: start it with `graph-context-lab dashboard`" in refusal
    assert remote_refusal(address, {ALLOW_REMOTE: "1"}) is None


def test_the_app_refuses_a_network_address_unless_asked(monkeypatch):
    from streamlit.testing.v1 import AppTest

    from dashboard import serving

    monkeypatch.setattr(serving, "served_address", lambda: "0.0.0.0")
    monkeypatch.delenv(ALLOW_REMOTE, raising=False)
    app = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=120).run()
    assert [error.value.split("\n")[0] for error in app.error] == [
        "**This dashboard refuses to serve beyond this machine.**"]
    assert "on 0.0.0.0" in app.error[0].value and not app.sidebar.selectbox
