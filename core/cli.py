"""The `graph-context-lab` command line: the same computations as the dashboard, headless."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

from core.commands import advise, benchmark, convert, describe, evaluate, serve_model, serve_reader, suite, sweep
from core.errors import GraphContextError, LoadNotice

COMMANDS = [benchmark, convert, describe, evaluate, serve_model, serve_reader, sweep, suite, advise]  # each module adds its own subcommand


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="graph-context-lab",
                                     description="See what writing a graph into an LLM prompt costs and loses.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def _print_notice(message, category, filename, lineno, file=None, line=None) -> None:
    """A reader's notice as one line of the program's own (other warnings keep Python's format)."""
    if issubclass(category, LoadNotice):
        print(f"graph-context-lab: notice: {message}", file=sys.stderr)
    else:
        _show_warning(message, category, filename, lineno, file, line)


_show_warning = warnings.showwarning


def main(argv: Sequence[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", LoadNotice)
            warnings.showwarning = _print_notice
            return arguments.run(arguments)
    except GraphContextError as error:
        print(f"graph-context-lab: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a file that could not be written or read: name it when the error does
        place = f" ({error.filename})" if error.filename else ""
        print(f"graph-context-lab: error: {error.strerror or error}{place}. Fix: check the path, its folder and "
              "the permissions", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
