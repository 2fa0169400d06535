"""Fixtures for the evaluation tests: the bundled reader server on a free loopback port, small contexts."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from core.evaluate.client import Endpoint
from core.evaluate.reader_server import ReaderServer

API_KEY = "sk-test-4f1c2b9e-must-never-be-stored"


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    """Refuse (and so fail) any connection these tests would open beyond this machine's loopback."""
    connect = socket.socket.connect

    def checked(self, address):
        if self.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0]
            try:
                allowed = host == "localhost" or ipaddress.ip_address(host).is_loopback
            except ValueError:
                allowed = False
            if not allowed:
                raise AssertionError(f"a test tried to connect to {host!r}, beyond loopback")
        return connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", checked)


@pytest.fixture
def server():
    with ReaderServer() as running:
        yield running


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def endpoint(url: str, model: str = "oracle", **settings) -> Endpoint:
    options = {"timeout_seconds": 5.0, "max_retries": 0, "api_key_variable": "GCL_TEST_API_KEY", **settings}
    return Endpoint(url, model, **options)


@pytest.fixture(scope="session")
def bundled_model():
    """The bundled SmolLM2 model's server, started once per test session (per xdist worker) and stopped after."""
    from core.evaluate.model_process import ModelProcess

    with ModelProcess() as running:
        yield running
