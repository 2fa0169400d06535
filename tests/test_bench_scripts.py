"""The benchmarks are not timed tests, but each must still import: a moved name would break them silently."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.parametrize("script", sorted(path.name for path in BENCH.glob("*.py")))
def test_every_bench_script_imports(script):
    spec = importlib.util.spec_from_file_location(f"bench_{script[:-3]}", BENCH / script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # each runs only under __main__
    assert callable(getattr(module, "main", None)), f"bench/{script} has no main()"
