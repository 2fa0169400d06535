"""Names written bare when they are plain words and as JSON strings otherwise, plus JSON-literal values.

The prose-like line formats (arrows, tuples, incident text, CKG lines, local ids, semantic text)
separate fields with spaces and punctuation, so a name is written bare only when it cannot be
mistaken for that punctuation: it starts with a letter, digit or `_` and continues with those or a
format's extra characters. Anything else (`svc api`, `a, b`, `"`, `->`, the empty name, a line
break) is written as a JSON string literal, which also gives every property value its exact type.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from core.errors import FormatError, GraphError
from core.formats.base import RecordText
from core.formats.decoding import properties_from
from core.graph.model import Properties, PropertyValue, freeze_properties

_DECODER = json.JSONDecoder()


# The encoders json.dumps builds on every call with these options, built once: the same text.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_QUOTED = json.JSONEncoder(ensure_ascii=False)


def json_text(value: object) -> str:
    """Compact JSON with non-ASCII kept as written."""
    return _COMPACT.encode(value)


def add_properties(record: RecordText, properties: Properties, lead: str = " ") -> None:
    """`lead` and the properties as a compact JSON object, when there are any."""
    if properties:
        record.add(lead).add(json_text(dict(properties)), "property_value")


def where(line: int, column: int) -> str:
    return f"line {line}, column {column + 1}"


def fail(what: str, line: int, column: int, fix: str) -> FormatError:
    return FormatError(what, where(line, column), fix, line=line)


def read_json(text: str, position: int, line: int) -> tuple[object, int]:
    """The JSON value starting exactly at `position` and the offset just after it."""
    try:
        return _DECODER.raw_decode(text, position)
    except json.JSONDecodeError as error:
        raise fail(f"invalid JSON: {error.msg}", line, error.pos,
                   'write names as JSON strings ("...") and properties as a JSON object') from None
    except ValueError as error:  # e.g. an integer longer than Python converts
        raise fail(f"invalid JSON value: {error}"[:120], line, position, "write a shorter value") from None
    except RecursionError:
        raise fail("JSON nested too deeply", line, position, "property values are text, numbers or true/false"
                   ) from None


def read_properties(text: str, position: int, line: int) -> tuple[Properties, int]:
    """A JSON object of properties starting at `position` (which holds `{`)."""
    value, end = read_json(text, position, line)
    try:
        return properties_from(value, where(line, position)), end
    except FormatError as error:
        raise FormatError(error.what, error.where, error.fix, line=line) from None


def read_scalar(text: str, position: int, line: int) -> tuple[PropertyValue, int]:
    """One property value as a JSON literal: a string, a number, true or false."""
    value, end = read_json(text, position, line)
    if isinstance(value, (str, int, float)):  # bool is an int
        return value, end
    raise fail(f"a property value must be text, a number or true/false, found {json_text(value)[:40]}",
               line, position, "write the value as a JSON string, number, true or false")


def frozen(pairs: list[tuple[str, PropertyValue]], line: int) -> Properties:
    try:
        return freeze_properties(pairs, f"line {line}")
    except GraphError as error:
        raise FormatError(error.what, f"line {line}", error.fix, line=line) from None


class Names:
    """How one format writes and reads names (ids, types, relations, property keys)."""

    def __init__(self, extra: str = "-/+@'", reserved: Iterable[str] = ()) -> None:
        self.extra = extra
        self.reserved = frozenset(reserved)
        # Safe on untrusted names: one character, then one class; nothing to re-split.
        self._bare = re.compile(rf"\w[\w{re.escape(extra)}]*\Z")
        self._bare_prefix = re.compile(rf"\w[\w{re.escape(extra)}]*")

    def is_bare(self, value: str) -> bool:
        return self._bare.match(value) is not None and value not in self.reserved

    def write(self, value: str) -> str:
        return value if self.is_bare(value) else _QUOTED.encode(value)

    def read(self, text: str, position: int, line: int, what: str = "a name") -> tuple[str, int]:
        """The name starting at `position` (bare or a JSON string) and the offset just after it."""
        if text.startswith('"', position):
            value, end = read_json(text, position, line)
            if not isinstance(value, str):  # pragma: no cover - a JSON value starting with " is a string
                raise fail(f"expected {what}", line, position, "write it as a JSON string")
            return value, end
        match = self._bare_prefix.match(text, position)
        if match is None:
            shown = repr(text[position:position + 12]) if position < len(text) else "the end of the line"
            raise fail(f"expected {what}, found {shown}", line, position,
                       'write a plain word (letters, digits, _ and ' + self.extra + ') or a JSON string "..."')
        if match.group() in self.reserved:
            raise fail(f"{match.group()!r} must be quoted here", line, position,
                       f'write it as the JSON string "{match.group()}"')
        return match.group(), match.end()


class Cursor:
    """Reads one line left to right; every failure is a FormatError naming the line and column."""

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.line = line
        self.position = 0

    def at_end(self) -> bool:
        return self.position >= len(self.text)

    def startswith(self, literal: str) -> bool:
        return self.text.startswith(literal, self.position)

    def take(self, literal: str) -> bool:
        """Consume `literal` if it comes next."""
        if self.startswith(literal):
            self.position += len(literal)
            return True
        return False

    def expect(self, literal: str, fix: str) -> None:
        if not self.take(literal):
            found = repr(self.text[self.position:self.position + 12]) if not self.at_end() else "the end of the line"
            raise self.error(f"expected {literal!r}, found {found}", fix)

    def name(self, names: Names, what: str = "a name") -> str:
        value, self.position = names.read(self.text, self.position, self.line, what)
        return value

    def properties(self) -> Properties:
        value, self.position = read_properties(self.text, self.position, self.line)
        return value

    def optional_properties(self, lead: str = " ") -> Properties:
        """Properties when `lead` and a JSON object come next, else none."""
        if self.startswith(lead + "{"):
            self.position += len(lead)
            return self.properties()
        return ()

    def scalar(self) -> PropertyValue:
        value, self.position = read_scalar(self.text, self.position, self.line)
        return value

    def span(self, start: int) -> str:
        return self.text[start:self.position]

    def end(self, fix: str) -> None:
        if not self.at_end():
            raise self.error(f"unexpected text {self.text[self.position:self.position + 20]!r}", fix)

    def error(self, what: str, fix: str) -> FormatError:
        return fail(what, self.line, self.position, fix)
