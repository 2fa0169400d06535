"""Every command in the README's table "Which question, which page" runs, as the README writes it today.

The table is parsed from README.md itself, so a changed row is tested as written: each code span of the command
column is one command (`graph-context-lab COMMAND ...`), run in a fresh folder holding the samples. The
placeholders are filled with a bundled sample's own values: FILE the nvidia-jetson learning-graph CSV (read as a
user's file, not as the sample), ID a node of it whose question has an answer, URL and NAME the project's own
reference reader server (`core.evaluate.reader_server`, on a free loopback port) and its oracle model. Only
options that make a long command quick are added (fewer formats or budgets, never one the command gives), and
only for the commands named in QUICK; the command as written must exit 0.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from core.evaluate.reader_server import ReaderServer

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Which question, which page"
PROGRAM = "graph-context-lab"
CODE = re.compile(r"`([^`]+)`")
PLACES = {"FILE": "sample_graphs/nvidia-jetson/learning-graph.csv", "ID": "12", "NAME": "oracle"}
QUICK = {  # per command, options that keep a run short: (option, value), added only when the command lacks it
    "sweep": (("--formats", "csv,compact_json"),),
    "advise": (("--formats", "csv,compact_json"), ("--orderings", "hop_tiers,bfs_from_seeds")),
    "suite": (("--formats", "csv"), ("--orderings", "hop_tiers"), ("--layouts", "interleaved"),
              ("--policies", "record"), ("--budgets", "1024"), ("--seedings", "text")),
    "evaluate": (("--formats", "csv"), ("--budgets", "1024")),
}


def table_rows(text: str) -> list[tuple[str, str]]:
    """(question, command cell) of each row of the table under SECTION."""
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and not set(cells[0]) <= {"-"} and cells[0] != "question you have":
            rows.append((cells[0], cells[2]))
    return rows


def readme_commands() -> list[str]:
    return [command for _question, cell in table_rows((ROOT / "README.md").read_text(encoding="utf-8"))
            for command in CODE.findall(cell)]


def filled(command: str, url: str) -> list[str]:
    words = shlex.split(command)
    places = {**PLACES, "URL": url}
    return [re.sub(r"\b(FILE|ID|URL|NAME)\b", lambda match: places[match.group(1)], word) for word in words]


def quick(words: list[str]) -> list[str]:
    extra = [part for option, value in QUICK.get(words[1], ()) if option not in words for part in (option, value)]
    return [*words, *extra]


def test_the_table_is_found_and_every_code_span_is_a_whole_command():
    rows = table_rows((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(rows) >= 8, "the README's table was not found: has its heading changed?"
    commands = readme_commands()
    assert len(commands) >= 8
    for command in commands:  # an option alone ("--verbose") is not a command a reader can run
        assert command.startswith(f"{PROGRAM} "), f"{command!r}: write the whole command ({PROGRAM} COMMAND ...)"


@pytest.fixture(scope="module")
def reader_url():
    with ReaderServer() as running:
        yield running.url


@pytest.mark.parametrize("command", readme_commands())
def test_a_command_of_the_readme_table_runs(command, reader_url, tmp_path):
    (tmp_path / "sample_graphs").symlink_to(ROOT / "sample_graphs")
    words = quick(filled(command, reader_url))
    program = Path(sys.prefix) / "bin" / PROGRAM
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120", "OPENAI_API_KEY": "sk-local-reader"}
    ran = subprocess.run([str(program), *words[1:]], cwd=tmp_path, env=environment, capture_output=True, text=True,
                         timeout=600)
    assert ran.returncode == 0, f"{shlex.join(words)}: exit {ran.returncode}\n{ran.stdout[-2000:]}\n{ran.stderr[-3000:]}"
    assert "Traceback" not in ran.stderr, ran.stderr[-3000:]
