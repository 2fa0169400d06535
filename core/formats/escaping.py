"""Backslash escaping for pipe-delimited line formats: `\\\\`, `\\p` for `|`, `\\n`, `\\r`."""

from __future__ import annotations

from core.errors import FormatError

_ESCAPES = {"\\": "\\\\", "|": "\\p", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", "p": "|", "n": "\n", "r": "\r"}


def escape_atom(value: str) -> str:
    """Escape one field; text without `\\`, `|`, newline or carriage return is returned unchanged."""
    if not any(char in value for char in _ESCAPES):
        return value
    return "".join(_ESCAPES.get(char, char) for char in value)


def split_fields(line: str, line_number: int) -> list[str]:
    """Split a line on unescaped `|` and unescape each field; a bad escape is a FormatError."""
    if "\\" not in line:  # no escape at all (most lines): every `|` separates, nothing to unescape
        return line.split("|")
    fields: list[str] = []
    current: list[str] = []
    index = 0
    while index < len(line):
        char = line[index]
        if char == "|":
            fields.append("".join(current))
            current = []
        elif char == "\\":
            code = line[index + 1] if index + 1 < len(line) else ""
            if code not in _UNESCAPES:
                shown = f"\\{code}" if code else "a trailing \\"
                raise FormatError(f"unknown escape {shown!r}", f"line {line_number}, column {index + 1}",
                                  "write \\\\ for a backslash, \\p for |, \\n for a newline, \\r for a "
                                  "carriage return", line=line_number)
            current.append(_UNESCAPES[code])
            index += 1
        else:
            current.append(char)
        index += 1
    fields.append("".join(current))
    return fields
