"""Fixtures shared by core's tests: one local Ray instance for the whole session, shut down after."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def ray_instance():
    """A local Ray (2 CPUs, no dashboard, token auth off), started once per session (~10 s)."""
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway local instance needs no token
    import ray  # slow to import; only the tests that use Ray pay for it

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
