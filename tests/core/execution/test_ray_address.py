"""A Ray address is checked within seconds: well formed, and a gRPC server answering (D4)."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from core.cli import main
from core.errors import ParameterError
from core.execution.ray_address import check_ray_address, host_and_port


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class AnsweringServer:
    """Answers the first bytes of every connection with `reply` (a Redis error, or an HTTP/2 SETTINGS frame)."""

    def __init__(self, reply: bytes) -> None:
        self.reply = reply
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                connection.recv(1024)
                connection.sendall(self.reply)

    def close(self) -> None:
        self.listener.close()


@pytest.mark.parametrize("address", ["not an address", "127.0.0.1:99999", "127.0.0.1", ":6379", "host:port"])
def test_a_malformed_address_is_a_parameter_error_not_a_traceback(address):
    """D4: "not an address" ended in Ray's ValueError traceback; port 99999 retried for 200 s."""
    with pytest.raises(ParameterError, match="--ray-address"):
        host_and_port(address)


def test_an_address_nothing_listens_at_is_refused_at_once():
    started = time.perf_counter()
    with pytest.raises(ParameterError, match="no Ray cluster answers at"):
        check_ray_address(f"127.0.0.1:{_free_port()}")
    assert time.perf_counter() - started < 5.0


def test_a_server_of_another_kind_is_refused_within_seconds():
    """D4: the FalkorDB (Redis) port as a Ray address retried for more than 200 s."""
    redis_like = AnsweringServer(b"-ERR unknown command 'PRI'\r\n")
    try:
        with pytest.raises(ParameterError, match="is not a Ray cluster"):
            check_ray_address(redis_like.address, timeout=2.0)
    finally:
        redis_like.close()


def test_a_grpc_server_passes_the_check():
    grpc_like = AnsweringServer(b"\x00\x00\x06\x04\x00\x00\x00\x00\x00" + b"\x00\x03\x00\x00\x00\x64")
    try:
        check_ray_address(grpc_like.address, timeout=2.0)
    finally:
        grpc_like.close()


def test_the_suite_command_says_so_in_one_line_within_seconds(capsys):
    started = time.perf_counter()
    code = main(["suite", "--graph", "nvidia-jetson", "--formats", "csv", "--budgets", "512", "--engine", "ray",
                 "--ray-address", f"127.0.0.1:{_free_port()}"])
    assert code == 2 and time.perf_counter() - started < 10.0
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "no Ray cluster answers at 127.0.0.1:" in error[0]


def _added(shared: int, task: int) -> int:
    return shared + task


def test_a_real_ray_clusters_address_passes_and_a_dead_raylet_is_one_error(ray_instance, monkeypatch):
    """The probe accepts a real GCS; D15: a raylet killed mid-suite raised LocalRayletDiedError as a traceback."""
    from core.errors import EngineError
    from core.execution.engine import run_tasks

    check_ray_address(ray_instance.get_runtime_context().gcs_address)

    def raylet_died(*args, **kwargs):
        raise ray_instance.exceptions.LocalRayletDiedError()

    monkeypatch.setattr(ray_instance, "wait", raylet_died)
    with pytest.raises(EngineError, match="Ray failed while running the suite: LocalRayletDiedError"):
        run_tasks(_added, 1, [1, 2], engine="ray")


def test_workers_that_never_start_are_one_error_within_the_bound(ray_instance, monkeypatch):
    """D4: under a memory limit every Ray worker died at start and the suite waited in ray.wait until killed."""
    from core.errors import EngineError
    from core.execution import engine

    real_get = ray_instance.get

    def never_ready(reference, timeout=None):
        if timeout == engine.WORKER_START_SECONDS:  # the start check's task: as if no worker ever ran it
            raise ray_instance.exceptions.GetTimeoutError("Get timed out")
        return real_get(reference, timeout=timeout)

    monkeypatch.setattr(ray_instance, "get", never_ready)
    with pytest.raises(EngineError, match="no Ray worker started within 60 s"):
        engine.run_tasks(_added, 1, [1, 2], engine="ray")
    monkeypatch.undo()
    assert engine.run_tasks(_added, 1, [1, 2], engine="ray") == [2, 3]  # and with live workers the check passes
