"""Where the test suite's time goes: pytest's per-test durations summed per test module and per folder.

    CI=true .venv/bin/python -m pytest -p no:cacheprovider --durations 0 > run.log
    .venv/bin/python bench/test_durations.py run.log [--modules 25]

Reads every `<seconds>s <call|setup|teardown> <test id>` line pytest printed, and prints two Markdown tables:
each folder under tests/ (its tests' time, share of the whole, how many tests took 5 ms or more: pytest lists
no shorter one) and the slowest modules. The times are the workers' (with `-n 2`, the wall time is about half
their sum); the last line is pytest's own summary, for the wall time and the number of tests.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

LINE = re.compile(r"^(\d+(?:\.\d+)?)s (call|setup|teardown)\s+(tests/\S+?\.py)::(\S+)")
SUMMARY = re.compile(r"^=+ (.* in [\d.]+s.*) =+$")


def read(log: Path) -> tuple[dict[str, float], dict[str, set[str]], str]:
    seconds: dict[str, float] = defaultdict(float)
    tests: dict[str, set[str]] = defaultdict(set)
    summary = ""
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        match = LINE.match(line)
        if match:
            seconds[match.group(3)] += float(match.group(1))
            tests[match.group(3)].add(match.group(4))
        elif found := SUMMARY.match(line):
            summary = found.group(1)
    return seconds, tests, summary


def folder_of(module: str) -> str:
    parts = module.split("/")
    return "/".join(parts[:3]) if parts[1] == "core" and len(parts) > 3 else "/".join(parts[:-1]) or module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path, help="what pytest --durations 0 printed")
    parser.add_argument("--modules", type=int, default=25, help="how many of the slowest modules to list")
    arguments = parser.parse_args()
    seconds, tests, summary = read(arguments.log)
    if not seconds:
        print(f"{arguments.log}: no duration lines (run pytest with --durations 0)", file=sys.stderr)
        return 2
    total = sum(seconds.values())
    folders: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for module, spent in seconds.items():
        folders[folder_of(module)] += spent
        counts[folder_of(module)] += len(tests[module])
    print("| folder | test time | share | tests of 5 ms or more |\n|---|---:|---:|---:|")
    for folder, spent in sorted(folders.items(), key=lambda item: -item[1]):
        print(f"| `{folder}` | {spent:,.0f} s | {spent / total:.0%} | {counts[folder]:,} |")
    print(f"| all | {total:,.0f} s | 100% | {sum(counts.values()):,} |\n")
    print("| module | test time | tests of 5 ms or more |\n|---|---:|---:|")
    for module, spent in sorted(seconds.items(), key=lambda item: -item[1])[:arguments.modules]:
        print(f"| `{module}` | {spent:,.0f} s | {len(tests[module]):,} |")
    print(f"\npytest: {summary}" if summary else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
