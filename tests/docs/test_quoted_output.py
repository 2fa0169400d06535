"""Where a docs page quotes a command's output, the command prints every quoted line today.

A quoted output is a fenced `text` block right after the line MARK, and the command is the page's last `bash`
block above it. The test runs that block as the page writes it (in a fresh folder holding the samples and the
test's environment as `.venv`, as tests/docs/test_commands.py does) and finds each quoted line, whole, among
the lines it printed; a line of "…" alone stands for lines left out.
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
MARK = "<!-- output of the command above"
FENCE = re.compile(r"^```(bash|text)\n(.*?)^```$", re.M | re.S)
ELIDED = "…"


@dataclass(frozen=True)
class Quote:
    page: str
    number: int  # the quote's place on its page, from 1
    command: str
    lines: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.page}#{self.number}"


def quotes_of(path: Path) -> list[Quote]:
    text = path.read_text(encoding="utf-8")
    found, command = [], None
    for match in FENCE.finditer(text):
        if match.group(1) == "bash":
            command = match.group(2)
            continue
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if before.startswith(MARK):
            assert command is not None, f"{path.name}: a quoted output with no command above it"
            lines = tuple(line.rstrip() for line in match.group(2).splitlines() if line.strip() != ELIDED)
            found.append(Quote(path.relative_to(ROOT).as_posix(), len(found) + 1, command, lines))
    return found


def every_quote() -> list[Quote]:
    pages = [ROOT / "README.md", *sorted(path for path in (ROOT / "docs").rglob("*.md") if "hooks" not in path.parts)]
    return [quote for page in pages for quote in quotes_of(page)]


def test_the_advisor_page_quotes_the_advice_where_something_answers_and_where_nothing_does():
    quotes = [quote for quote in every_quote() if quote.page == "docs/reference/advisor-and-cost.md"
              and "graph-context-lab advise" in quote.command]  # the page also quotes benchmark's caps and estimators
    assert len(quotes) == 2, "the advisor page's quoted outputs are not marked: see this module's docstring"
    first, second = (quote.lines for quote in quotes)
    assert any(line.startswith("  best:") for line in first)
    assert "Nothing answers the question" in second[0] and not any(line.startswith("  best:") for line in second)


@pytest.mark.parametrize("quote", every_quote(), ids=lambda quote: quote.name)
def test_each_quoted_line_is_printed_by_its_command(quote, tmp_path):
    (tmp_path / "sample_graphs").symlink_to(ROOT / "sample_graphs")
    (tmp_path / "bench").symlink_to(ROOT / "bench")  # a script that reads the checkout's copies of published data
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    ran = subprocess.run(["bash", "-c", "set -euo pipefail\n" + quote.command], cwd=tmp_path, env=environment,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, f"{quote.name}: exit {ran.returncode}\n{ran.stderr[-3000:]}"
    printed = {line.rstrip() for line in ran.stdout.splitlines()}
    missing = [line for line in quote.lines if line not in printed]
    assert not missing, f"{quote.name}: the command no longer prints these quoted lines:\n" + "\n".join(missing) + \
        "\n\nit printed:\n" + ran.stdout[-4000:]
