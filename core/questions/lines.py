"""Reading question files line by line: size limits, JSON lines, and one error that lists every bad line.

A file is used whole or not at all: every line is checked first, and the first bad lines are
reported together (line number and what is wrong), so a user fixes them in one pass.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from core.errors import LoadError

MAX_BYTES = 20_000_000
MAX_QUESTIONS = 100_000
MAX_WHOLE_NUMBER = 1_000_000  # hop depths and hop counts: far past any graph's diameter, far below 2**63
SHOWN_ERRORS = 10
T = TypeVar("T")


class LineProblem(Exception):
    """What is wrong with one line (raised by a line parser, collected by `parse_lines`)."""


def read_question_file(path: str | Path) -> bytes:
    """A question file's bytes: a regular file of at most MAX_BYTES (a device or FIFO has no size to check
    first: /dev/zero ran out of memory and a FIFO waited for a writer forever)."""
    path = Path(path)
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            kind = ("a directory" if stat.S_ISDIR(status.st_mode) else "a named pipe (FIFO)"
                    if stat.S_ISFIFO(status.st_mode) else "a device or other special file")
            raise LoadError(f"the path is {kind}, not a question file", str(path),
                            "give the path of a regular file (save a stream to a file first)")
        if status.st_size > MAX_BYTES:
            raise LoadError(f"the question file has {status.st_size:,} bytes, more than the {MAX_BYTES:,} allowed",
                            str(path), "split the file into smaller question sets")
        with path.open("rb") as file:
            return file.read(MAX_BYTES + 1)  # text_of refuses the extra byte if the file grew meanwhile
    except OSError as error:
        raise LoadError(f"the question file cannot be read: {error.strerror or error}", str(path),
                        "check the path and the file's permissions") from None


def text_of(data: bytes | str, source: str) -> str:
    """The file's text, refused when too large or not UTF-8."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_BYTES:
        raise LoadError(f"the question file has {len(data):,} bytes, more than the {MAX_BYTES:,} allowed", source,
                        "split the file into smaller question sets")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise LoadError("the question file is not UTF-8 text", f"{source}, line {line}",
                        "save the file as UTF-8") from None


def parse_lines(numbered: Iterable[tuple[int, T]], parse: Callable[[int, T], object], source: str) -> list:
    """`parse` every (line number, content); raise one LoadError naming every bad line (the first ten)."""
    parsed, problems = [], []
    for line_number, content in numbered:
        try:
            parsed.append(parse(line_number, content))
        except LineProblem as problem:
            problems.append(f"line {line_number}: {problem}")
    if problems:
        shown = "; ".join(problems[:SHOWN_ERRORS])
        more = f" (and {len(problems) - SHOWN_ERRORS} more)" if len(problems) > SHOWN_ERRORS else ""
        raise LoadError(f"{len(problems)} bad line(s), so none of the file was used: {shown}{more}", source,
                        "correct those lines and load the file again")
    if not parsed:
        raise LoadError("the question file holds no question", source, "write one question per line")
    if len(parsed) > MAX_QUESTIONS:
        raise LoadError(f"the file holds {len(parsed):,} questions, more than the {MAX_QUESTIONS:,} allowed", source,
                        "split it into smaller question sets")
    return parsed


def unique_ids(parse: Callable[[int, T], object]) -> Callable[[int, T], object]:
    """`parse`, refusing a question whose id an earlier line already used (naming that line)."""
    seen: dict[str, int] = {}

    def checked(line_number: int, content: T) -> object:
        question = parse(line_number, content)
        question_id = question.id  # type: ignore[attr-defined]
        if question_id in seen:
            raise LineProblem(f"id {question_id!r} was already used on line {seen[question_id]}")
        seen[question_id] = line_number
        return question
    return checked


def json_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every non-blank line."""
    return [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]


def json_value(text: str, what: str = "") -> object:
    """A JSON text's value, or the LineProblem saying why it is not one this lab can use (`what`: "the 'x'
    cell", said first; a whole line says nothing)."""
    said = f"{what} " if what else ""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise LineProblem(f"{said}{'is ' if what else ''}not valid JSON ({error.msg} at column {error.colno})") from None
    except RecursionError:
        raise LineProblem(f"{said}{'is ' if what else ''}JSON nested too deeply") from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise LineProblem(f"{said}holds a number too long to read (more than 4,300 digits)") from None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # "\ud800" escapes a lone surrogate, which is not text and cannot be stored
        raise LineProblem(f"{said}holds a lone surrogate escape (\\ud800-\\udfff), which is not text; "
                          "write the character itself or drop it") from None
    return value


def json_object(line: str) -> dict:
    """One line as a JSON object, or the LineProblem saying why not."""
    value = json_value(line)
    if not isinstance(value, dict):
        raise LineProblem(f"a JSON object {{...}} was expected, not {type(value).__name__}")
    return value


def required_text(record: dict, field: str) -> str:
    value = record.get(field)
    if not isinstance(value, str) or not value.strip():
        raise LineProblem(f"{field!r} is missing or not a non-empty text")
    return value


def whole_number(value: object, field: str) -> int | None:
    """An optional whole number (JSON number or its text)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise LineProblem(f"{field!r} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return bounded(value, field)
    text = str(value).strip()
    if len(text) > 20:  # int() of thousands of digits is slow, and past 4,300 raises
        raise LineProblem(f"{field!r} must be a whole number from 0 to {MAX_WHOLE_NUMBER:,}, not {text[:20]}...")
    try:
        return bounded(int(text), field)
    except ValueError:
        raise LineProblem(f"{field!r} must be a whole number, not {value!r}") from None


def bounded(value: int, field: str) -> int:
    """A count (hops, a hop depth): from 0 to MAX_WHOLE_NUMBER (10**40 overflowed pandas' Int64 columns)."""
    if not 0 <= value <= MAX_WHOLE_NUMBER:
        shown = f"{value}" if abs(value) < 10**30 else f"a number of {len(str(abs(value)))} digits"
        raise LineProblem(f"{field!r} must be a whole number from 0 to {MAX_WHOLE_NUMBER:,}, not {shown}")
    return value


def as_text(value: object) -> str:
    """A metadata value kept as text (JSON for lists and objects)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
