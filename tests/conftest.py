"""Shared test settings: hypothesis profiles and a guard that refuses any network connection."""

from __future__ import annotations

import socket

import pytest
from hypothesis import settings

from tests.hypothesis_profiles import PROFILE

settings.load_profile(PROFILE)


@pytest.fixture
def no_network(monkeypatch):
    """Make every socket connection fail, loopback included, as on a machine without a network."""

    def refuse(*args, **kwargs):
        raise OSError("network access is blocked in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
