"""Shared test settings: hypothesis profiles and a guard that refuses any network connection."""

from __future__ import annotations

import socket

import pytest
from hypothesis import settings

from tests.hypothesis_profiles import PROFILE, selects_exhaustive, use_exhaustive

settings.load_profile(PROFILE)


def pytest_configure(config):
    """`-m exhaustive` gives the registry x hypothesis products their full example counts (tests/hypothesis_profiles)."""
    use_exhaustive(selects_exhaustive(config.getoption("markexpr", "")))


@pytest.fixture
def no_network(monkeypatch):
    """Make every socket connection fail, loopback included, as on a machine without a network."""

    def refuse(*args, **kwargs):
        raise OSError("network access is blocked in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
