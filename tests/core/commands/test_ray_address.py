"""An unreachable --ray-address fails within seconds with one line, instead of Ray's minutes of retries."""

from __future__ import annotations

import socket
import time

import pytest

from core.cli import main
from core.commands.ray_address import check_reachable, host_and_port
from core.errors import ParameterError


def closed_port() -> int:
    with socket.socket() as probe:  # bound and closed again: nothing listens there
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("address, expected", [
    ("10.0.0.5:6379", ("10.0.0.5", 6379)), ("head", ("head", 6379)), ("ray://head", ("head", 10001)),
    ("ray://head:10002", ("head", 10002)),
])
def test_addresses_are_read_as_ray_writes_them(address, expected):
    assert host_and_port(address) == expected


@pytest.mark.parametrize("address", [":6379", "head:port"])
def test_a_malformed_address_is_refused_with_a_fix(address):
    with pytest.raises(ParameterError, match="ray start --head"):
        host_and_port(address)


def test_a_port_where_nothing_listens_is_refused_at_once():
    started = time.monotonic()
    with pytest.raises(ParameterError, match=r"no Ray cluster at 127\.0\.0\.1"):
        check_reachable(f"127.0.0.1:{closed_port()}")
    assert time.monotonic() - started < 5


def test_the_suite_fails_within_seconds_with_one_line(capsys):
    started = time.monotonic()
    code = main(["suite", "--graph", "nvidia-jetson", "--engine", "ray", "--ray-address", f"127.0.0.1:{closed_port()}",
                 "--no-progress"])
    elapsed = time.monotonic() - started
    error = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and elapsed < 10
    assert len(error) == 1 and error[0].startswith("graph-context-lab: error: no Ray cluster at 127.0.0.1:")


def test_a_listening_port_passes_the_check():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        check_reachable(f"127.0.0.1:{server.getsockname()[1]}")
