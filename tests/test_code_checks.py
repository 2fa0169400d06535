"""The linter, the type checker and the import contracts run with the tests, so the README's one test command (and .ci/run) runs them.

Both read their settings from pyproject.toml ([tool.ruff], [tool.mypy]); mypy keeps its cache in
.mypy_cache, so a second run checks only what changed (a first run takes about half a minute).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *arguments], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)


def test_ruff_finds_nothing_in_the_whole_tree():
    result = _run("ruff", "check", "--no-fix", "--output-format", "concise", ".")
    assert result.returncode == 0, f"ruff check . failed:\n{result.stdout}{result.stderr}"


def test_mypy_finds_no_type_error_in_core():
    result = _run("mypy", "core")
    assert result.returncode == 0, f"mypy core failed:\n{result.stdout}{result.stderr}"


def test_core_stages_import_only_downward():
    """import-linter's contracts in pyproject.toml: DESIGN.md's layer order, no cycle, core free of the dashboard."""
    result = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--no-cache"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, f"lint-imports failed:\n{result.stdout}{result.stderr}"
