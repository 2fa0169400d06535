"""The `graph-context-lab` command line: the same computations as the dashboard, headless."""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NoReturn

from core.commands.name_lists import LISTED, known_names
from core.errors import GraphContextError, LoadNotice

# (command, its one-line help, the module that adds its options and runs it). `--help` is built from this table
# alone; a command's module, and what it imports (pandas, plotly, openai, ray), is imported only when that command
# is run or its own --help is asked (tests/core/test_cli.py checks each line against its module's own help).
COMMANDS = (
    ("benchmark", "the reference benchmark: every format, exact tokens", "core.commands.benchmark"),
    ("convert", "save a graph file or sample in another format", "core.commands.convert"),
    ("dashboard", "start the dashboard on loopback with the project's settings, from any folder",
     "core.commands.dashboard"),
    ("describe", "the graph's own figures, without rendering it", "core.commands.describe"),
    ("evaluate", "ask a model about every budget cut; store, score and price the answers", "core.commands.evaluate"),
    ("serve-model", "serve the bundled SmolLM2-135M-Instruct model (or a GGUF file) over OpenAI-compatible HTTP",
     "core.commands.serve_model"),
    ("serve-reader", "serve the oracle and first-k reference readers over OpenAI-compatible HTTP",
     "core.commands.serve_reader"),
    ("sweep", "cut every format, ordering and policy at every budget: what survives, what still answers",
     "core.commands.sweep"),
    ("suite", "run a question set (CKG file, own JSONL/CSV, or generated) over formats and budgets",
     "core.commands.suite"),
    ("advise", "name the best lossless format, ordering and policy at a budget, with the runner-up, the baselines "
               "and why", "core.commands.advise"),
    ("audit", "decode a context another pipeline built: its tokens, units, duplicates, dangling edges and evidence",
     "core.commands.audit"),
)
COMMAND_NAMES = tuple(name for name, _, _ in COMMANDS)
INTERRUPTED = 130  # the shell's status for a program stopped by SIGINT (128 + 2)


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


def build_parser(full: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The parser: the commands named in `full` (default: every command) with their own options, the others as
    one line of help each, so that `--help` and a command's run import only what they need."""
    loaded = set(COMMAND_NAMES if full is None else full)
    parser = BriefParser(prog="graph-context-lab",
                         description="See what writing a graph into an LLM prompt costs and loses.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, help_text, module_name in COMMANDS:
        if name in loaded:
            importlib.import_module(module_name).add_parser(commands)
        else:
            commands.add_parser(name, help=help_text)
    return parser


def command_named(argv: Sequence[str]) -> str | None:
    """The command the arguments name: the first word that is not an option (the top level has only --help)."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first if first in COMMAND_NAMES else None


def _print_notice(message, category, filename, lineno, file=None, line=None) -> None:
    """A reader's notice as one line of the program's own (other warnings keep Python's format)."""
    if issubclass(category, LoadNotice):
        print(f"graph-context-lab: notice: {message}", file=sys.stderr)
    else:
        _show_warning(message, category, filename, lineno, file, line)


_show_warning = warnings.showwarning


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parsed: list[argparse.Namespace] = []
    try:
        return _run(argv, parsed)
    except KeyboardInterrupt:  # Ctrl-C: a clean stop with one line, never a traceback
        print(f"graph-context-lab: interrupted: {interrupted_kept(parsed[0] if parsed else None)}", file=sys.stderr,
              flush=True)
        return INTERRUPTED


OUTPUT_OPTIONS = ("output", "cut_report", "contexts_dir")  # the arguments that name a path a command writes


def interrupted_kept(arguments: argparse.Namespace | None) -> str:
    """What a stopped command kept: every file is written whole (core.io.whole_file), so an output not yet
    replaced is as it was before; evaluate's run store commits each answer as it arrives."""
    whole_file = sys.modules.get("core.io.whole_file")  # not imported yet: nothing was written
    written = [str(path) for path in whole_file.files_written()] if whole_file is not None else []
    said = [f"wrote {', '.join(written[:3])}{', …' if len(written) > 3 else ''} whole before the stop" if written
            else "nothing was written"]
    for name in OUTPUT_OPTIONS:
        path = getattr(arguments, name, None)
        if path is not None and str(path) not in written:
            said.append(f"{path} is as it was before" if Path(path).exists() else f"{path} was not written")
    if getattr(arguments, "command", None) == "evaluate":
        said.append("the run store keeps every answer received (run the same command again to resume)")
    return "; ".join(said)


def _run(argv: list[str], parsed: list[argparse.Namespace]) -> int:
    command = command_named(argv)
    arguments = build_parser([command] if command else []).parse_args(argv)
    parsed.append(arguments)  # for the line a Ctrl-C prints
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
