"""The one place that reads CI=true: which hypothesis profile the tests run under, and sizes scaled to it.

Also the suite's two tiers. A registry x hypothesis product (a property checked for every format, tokenizer,
ordering or policy, each with its own generated examples) is marked `cross_product(full)`: in the default and
CI runs it checks every registered item with CROSS_PRODUCT_EXAMPLES examples each; in the exhaustive tier
(`pytest -m exhaustive`, which runs only those tests, or TESTS_EXHAUSTIVE=1 with any selection) with `full`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TypeVar

import pytest
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


CROSS_PRODUCT_EXAMPLES = 20  # examples per registered item of a cross product, outside the exhaustive tier
EXHAUSTIVE_VARIABLE = "TESTS_EXHAUSTIVE"
_TIER = {"exhaustive": os.environ.get(EXHAUSTIVE_VARIABLE) == "1"}
T = TypeVar("T", bound=Callable)


def selects_exhaustive(mark_expression: str) -> bool:
    """Whether a `-m` expression asks for the exhaustive tier: it names `exhaustive`, not as `not exhaustive`."""
    return re.search(r"(?<!not )\bexhaustive\b", mark_expression or "") is not None


def use_exhaustive(on: bool) -> None:
    """Switch the exhaustive tier (tests/conftest.py, from the `-m` expression, before the test modules load)."""
    _TIER["exhaustive"] = _TIER["exhaustive"] or on


def cross_product(full: int, small: int = CROSS_PRODUCT_EXAMPLES) -> Callable[[T], T]:
    """A registry x hypothesis test: marked `exhaustive`, with `full` examples per registered item in that
    tier and `small` (at most `full`) in every other run, CI's included. Put it above `@given`."""
    count = full if _TIER["exhaustive"] else min(full, small)

    def decorate(test: T) -> T:
        return pytest.mark.exhaustive(settings(max_examples=count)(test))
    return decorate
