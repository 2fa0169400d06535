"""Every shell command and Python example in the README and the docs runs, against the bundled samples.

Each page's fenced `bash` and `python` blocks run in order as one script, in a fresh folder that holds the samples
and the test's virtual environment as `.venv`, so a page's later commands see the files its earlier ones wrote
and a server it starts in the background (`&`) is stopped when the page ends. A block is skipped only by one of
the rules below, never by hand: a placeholder is written `<LIKE_THIS>`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(bash|python)\n(.*?)^```$", re.M | re.S)
SKIP_RULES = (  # (pattern, why a block matching it is not run here)
    (re.compile(r"<[A-Z][A-Z_]*>"), "holds a placeholder for the reader's own value"),
    (re.compile(r"python3 -m venv|pip install"), "installs packages: the set-up this test runs inside"),
    (re.compile(r"streamlit run|graph-context-lab dashboard|mkdocs serve"),
     "starts a server that runs until stopped (the browser tests and test_dashboard_command cover it)"),
    (re.compile(r"\bbench/"), "a benchmark of minutes whose figures are on the performance page"),
)
EMPTY_ANSWER = "is empty on this graph"  # what benchmark says when an example's question has no answer


@dataclass(frozen=True)
class Block:
    page: str
    language: str
    text: str

    def skipped_because(self) -> str | None:
        return next((reason for pattern, reason in SKIP_RULES if pattern.search(self.text)), None)


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(path for path in (ROOT / "docs").rglob("*.md") if "hooks" not in path.parts)]


def blocks(path: Path) -> list[Block]:
    name = path.relative_to(ROOT).as_posix()
    return [Block(name, match.group(1), match.group(2)) for match in FENCE.finditer(path.read_text(encoding="utf-8"))]


def script(page_blocks: list[Block], folder: Path) -> str:
    """One bash script for a page: its bash blocks as written, its Python blocks run from files."""
    lines = ["set -euo pipefail", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT"]
    for number, block in enumerate(page_blocks):
        if block.language == "python":
            source = folder / f"example_{number}.py"
            source.write_text(block.text, encoding="utf-8")
            lines.append(f".venv/bin/python {source.name}")
        else:
            lines.append(block.text)
    return "\n".join(lines) + "\n"


def runnable_pages() -> list[str]:
    return [path.relative_to(ROOT).as_posix() for path in pages()
            if any(block.skipped_because() is None for block in blocks(path))]


def test_every_skipped_block_is_skipped_by_a_rule_and_most_blocks_run():
    every = [block for path in pages() for block in blocks(path)]
    skipped = [block for block in every if block.skipped_because() is not None]
    assert len(every) > 25, "the extractor found too few blocks: has the fence syntax changed?"
    assert len(skipped) <= len(every) // 3, [(block.page, block.skipped_because()) for block in skipped]


@pytest.mark.parametrize("page", runnable_pages())
def test_the_commands_of_a_page_run(page, tmp_path):
    page_blocks = [block for block in blocks(ROOT / page) if block.skipped_because() is None]
    (tmp_path / "sample_graphs").symlink_to(ROOT / "sample_graphs")
    environment_folder = Path(sys.prefix)  # the environment running the tests, named `.venv` as the docs name it
    assert (environment_folder / "bin" / "graph-context-lab").exists(), (
        f"{environment_folder} has no graph-context-lab script: install the project into it (pip install -e .)")
    (tmp_path / ".venv").symlink_to(environment_folder)
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1", "COLUMNS": "120"}
    ran = subprocess.run(["bash", "-c", script(page_blocks, tmp_path)], cwd=tmp_path, env=environment,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, f"{page}: exit {ran.returncode}\n{ran.stdout[-2000:]}\n{ran.stderr[-3000:]}"
    assert EMPTY_ANSWER not in ran.stdout, f"{page}: an example asks a question whose answer is empty"
    assert "Traceback" not in ran.stderr, ran.stderr[-3000:]
