"""The plain start command is safe: it listens on the loopback interface only and sends nothing outside.

`streamlit run dashboard/app.py` with no address flag (as a user types it, the configuration in
.streamlit/config.toml decides); the test reads the server's own sockets while it starts and answers, and its log.
"""

from __future__ import annotations

import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import psutil

from tests.browser.conftest import free_port, wait_until_healthy
from tests.process_sockets import loopback, sockets

ROOT = Path(__file__).resolve().parents[2]


def test_the_configuration_binds_loopback_and_gathers_no_statistics():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert config["browser"]["serverAddress"] == "127.0.0.1"
    assert config["browser"]["gatherUsageStats"] is False


def test_the_start_command_listens_on_loopback_only_and_sends_nothing_out(tmp_path):
    port = free_port()
    log = tmp_path / "streamlit.log"
    with open(log, "w") as output:
        server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "dashboard/app.py", "--server.port",
                                   str(port), "--server.fileWatcherType", "none"],
                                  cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
        try:
            process = psutil.Process(server.pid)
            seen = []
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and not any(item.status == psutil.CONN_LISTEN for item in seen):
                seen += sockets(process)
                time.sleep(0.05)
            url = f"http://127.0.0.1:{port}"
            wait_until_healthy(url, server)
            with urllib.request.urlopen(url, timeout=10) as answer:
                assert answer.status == 200
            for _ in range(20):  # a while after start, when a usage or IP check would go out
                seen += sockets(process)
                time.sleep(0.1)
        finally:
            server.terminate()
            server.wait(timeout=10)
    listening = {(item.laddr.ip, item.laddr.port) for item in seen if item.status == psutil.CONN_LISTEN}
    assert listening and all(loopback(address) for address, _port in listening), listening
    outside = {item.raddr for item in seen if item.raddr and not loopback(item.raddr.ip)}
    assert outside == set()
    text = log.read_text()
    assert f"URL: http://127.0.0.1:{port}" in text
    assert "Network URL" not in text and "External URL" not in text
