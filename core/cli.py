"""The `graph-context-lab` command line: the same computations as the dashboard, headless."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from typing import NoReturn

from core.commands import advise, benchmark, convert, describe, evaluate, serve_model, serve_reader, suite, sweep
from core.commands.name_lists import LISTED, known_names
from core.errors import GraphContextError, LoadNotice

COMMANDS = [benchmark, convert, describe, evaluate, serve_model, serve_reader, sweep, suite, advise]  # each module adds its own subcommand


class BriefParser(argparse.ArgumentParser):
    """A parser whose usage mistake prints the one-line reason first, then a one-line usage that points at --help.

    argparse's own error prints the whole usage first: 35 lines for `sweep`, mostly the 25 format names."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {shorter_choices(message)}\n"
                     f"usage: {self.prog} {'COMMAND ' if self._subparsers else ''}[options]; "
                     f"'{self.prog} --help' lists every option\n")


def shorter_choices(message: str) -> str:
    """argparse's "invalid choice: 'x' (choose from 'a', 'b', ...)" naming many choices as a command names them
    (core.commands.name_lists): the closest to 'x', the first few and how many there are."""
    head, separator, listed = message.partition("(choose from ")
    choices = [choice.strip().strip("'") for choice in listed.rstrip(")").split(",")]
    if not separator or len(choices) <= LISTED:
        return message
    typed = head.partition("invalid choice: ")[2].strip().strip("'")
    return f"{head.rstrip()}; use one of: {known_names([typed], choices)}"


def build_parser() -> argparse.ArgumentParser:
    parser = BriefParser(prog="graph-context-lab",
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
    except BrokenPipeError:  # the output was piped into a reader that stopped early (`| head`): not an error
        sys.stderr.close()
        return 0
    except ConnectionError as error:  # a server named by an address (a database, a cluster, an endpoint) did not answer
        print(f"graph-context-lab: error: {error}. Fix: check that the server at that address is up and reachable "
              "from here", file=sys.stderr)
        return 2
    except OSError as error:  # a file that could not be written or read: name it when the error does
        place = f" ({error.filename})" if error.filename else ""
        print(f"graph-context-lab: error: {error.strerror or error}{place}. Fix: check the path, its folder and "
              "the permissions", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
