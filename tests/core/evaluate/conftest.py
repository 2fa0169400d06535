"""Fixtures for the evaluation tests: the bundled reader server on a free loopback port, small contexts."""

from __future__ import annotations

import socket

import pytest

from core.evaluate.client import Endpoint
from core.evaluate.reader_server import ReaderServer

API_KEY = "sk-test-4f1c2b9e-must-never-be-stored"


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
