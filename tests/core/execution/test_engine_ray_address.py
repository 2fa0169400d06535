"""A Ray address where something answers but no Ray cluster does ends in one ParameterError, not a raw
ConnectionError (which the CLI would print as a file problem)."""

from __future__ import annotations

import pytest

from core.errors import ParameterError
from core.execution import engine
from core.execution.engine import run_tasks


def test_a_failed_connection_becomes_a_parameter_error_with_a_fix(monkeypatch):
    ray = pytest.importorskip("ray")

    def refuse(*arguments, **options):
        raise ConnectionError("Failed to connect to Ray cluster at 127.0.0.1:9")

    monkeypatch.setattr(engine, "check_ray_address", lambda address: None)  # a server answers, as in the probe
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    with pytest.raises(ParameterError, match=r"no Ray cluster answers at 127\.0\.0\.1:9") as raised:
        run_tasks(lambda shared, task: task, None, [1, 2], engine="ray", ray_address="127.0.0.1:9")
    assert "ray start --head" in str(raised.value)
