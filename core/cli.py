"""The `graph-context-lab` command line: the same computations as the dashboard, headless."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from core.commands import advise, benchmark, convert, describe, evaluate, serve_model, serve_reader, suite, sweep
from core.errors import GraphContextError

COMMANDS = [benchmark, convert, describe, evaluate, serve_model, serve_reader, sweep, suite, advise]  # each module adds its own subcommand


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="graph-context-lab",
                                     description="See what writing a graph into an LLM prompt costs and loses.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    try:
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
