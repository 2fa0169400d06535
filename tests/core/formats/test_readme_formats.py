"""The README's format table lists every registered format, with its lossless flag, and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

from core.formats import FORMATS

README = Path(__file__).resolve().parents[3] / "README.md"


def format_rows() -> dict[str, str]:
    section = README.read_text(encoding="utf-8").split("## Formats", 1)[1].split("\n## ", 1)[0]
    return {match.group(1): match.group(2) for match in re.finditer(r"^\| `([a-z_]+)` \| ([^|]+) \|", section, re.M)}


def test_every_registered_format_has_a_row_in_the_readme():
    assert sorted(format_rows()) == sorted(FORMATS.names())


def test_the_readme_marks_exactly_the_lossy_formats():
    rows = format_rows()
    for name in FORMATS.names():
        assert ("LOSSY" in rows[name]) == (not FORMATS.get(name).lossless), name
