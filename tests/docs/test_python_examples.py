"""Every Python block of the README and the docs runs as written, importing only what `core` exports.

A notebook user copies these blocks: one that reached into `core.queries` or `core.analysis` would teach an API
the project does not promise, so the import check fails it before it runs.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

import pytest

import core

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def python_blocks() -> list[tuple[str, str]]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [(f"{page.relative_to(ROOT)}#{number}", block) for page in pages
            for number, block in enumerate(BLOCK.findall(page.read_text(encoding="utf-8")), start=1)]


def imports_beyond_core(source: str) -> list[str]:
    """The import statements of `source` that take anything but `core`'s exported names."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module != "core":
                found.append(node.module or ".")
            found.extend(f"core.{alias.name}" for alias in node.names if alias.name not in core.__all__)
    return found


def test_the_import_check_catches_a_deeper_import_and_an_unexported_name():
    assert imports_beyond_core("from core.queries import query\nimport json") == ["core.queries", "json"]
    assert imports_beyond_core("from core import Workbench, sweep") == ["core.sweep"]
    assert imports_beyond_core("from core import Workbench, read_question") == []


def test_the_python_page_has_the_four_notebook_tasks():
    names = [name for name, _block in python_blocks() if name.startswith("docs/reference/python.md")]
    assert len(names) >= 5  # three formats, then: benchmark, sweep a question, a question set, advice


@pytest.mark.parametrize(("name", "source"), python_blocks(), ids=[name for name, _ in python_blocks()])
def test_the_block_imports_only_cores_exports_and_runs(name, source, monkeypatch):
    assert imports_beyond_core(source) == []
    monkeypatch.chdir(ROOT)  # the blocks name files as a reader in the checkout would
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(source, name, "exec"), {"__name__": "__notebook__"})  # the project's own docs, not user text
    assert printed.getvalue().strip(), f"{name} printed nothing"
