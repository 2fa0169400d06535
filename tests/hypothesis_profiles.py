"""The one place that reads CI=true: which hypothesis profile the tests run under, and sizes scaled to it."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_QUIET = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("default", max_examples=300, **_QUIET)
settings.register_profile("ci", max_examples=100, **_QUIET)  # CI's 30 minutes on two cores
settings.register_profile("quick", max_examples=30, **_QUIET)  # while iterating


def profile_name(environment: dict[str, str]) -> str:
    """HYPOTHESIS_PROFILE when set; else "ci" where CI=true; else "default"."""
    return environment.get("HYPOTHESIS_PROFILE") or ("ci" if environment.get("CI") == "true" else "default")


PROFILE = profile_name(dict(os.environ))


def examples(full: int, smaller: int) -> int:
    """A test's own example or cut count: `full` under the default profile, `smaller` under the others."""
    return full if PROFILE == "default" else smaller
