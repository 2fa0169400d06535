"""ISON cells and names as ison-py 1.2.0 writes them, guarded where its reader would read them back otherwise.

Shared by `ison` and `isongraph`. A cell is the package's own text (`ison_parser.Serializer`'s value writer)
whenever its reader gives that value back; the few it would not are written so that it does:

- a decimal the package writes with an exponent (`1e-05`, `1e+16`) reads back as the text "1e-05", so it is
  written with all its digits (`0.00001`, `10000000000000000.0`): the same float, in ISON's decimal syntax;
- text the package leaves unquoted but the reader misreads (a line starting `---` opens a summary, characters
  Python's `str.strip` removes vanish from a line's ends, a non-printable character) is quoted, with the
  package's escapes.

A property key that is no ISON field name (whitespace, `:`, `|`, `"`, `\\`, `.`, a leading `#`, empty, or one of
the record's own fields or `properties`) cannot head a column; such a record's properties are written as one
JSON object in a `properties` cell (ISON's convention for nested values), which the decoders read back.
"""

from __future__ import annotations

import json
from decimal import Decimal

import ison_parser

from core.errors import FormatError
from core.graph.model import Properties, PropertyValue

NESTED = "properties"
_FIELD_FORBIDDEN = set(" \t\n\r:|\"\\.")
_ESCAPES = (("\\", "\\\\"), ('"', '\\"'), ("\n", "\\n"), ("\t", "\\t"), ("\r", "\\r"))


def quoted(text: str) -> str:
    """A quoted ISON string, escaped as the package escapes one."""
    for char, escape in _ESCAPES:
        text = text.replace(char, escape)
    return f'"{text}"'


def _decimal(value: float) -> str:
    text = str(value)
    if "e" not in text:
        return text
    digits = format(Decimal(repr(value)), "f")
    return digits if "." in digits else digits + ".0"


def cell(value: PropertyValue | dict | None) -> str:
    """One value as the package writes it in a row (None: `null`), where its reader gives it back; else as above."""
    if isinstance(value, float):
        return _decimal(value)
    if isinstance(value, dict):
        value = json.dumps(value)
    written = ison_parser.Serializer._value_to_ison(value)  # the package's own cell writer
    if not isinstance(value, str) or written.startswith('"') or _reads_back(written, value):
        return written
    return quoted(value)


def _reads_back(written: str, value: str) -> bool:
    return (written == value and written.isprintable() and written == written.strip()
            and not written.startswith("---") and ison_parser.TypeInferrer.infer(written) == value)


def field_name_ok(key: str, reserved: tuple[str, ...]) -> bool:
    """Whether a property key can head a column of its own (see the module's docstring)."""
    return (bool(key) and key not in reserved and key != NESTED and not key.startswith("#")
            and key.isprintable() and not any(char.isspace() or char in _FIELD_FORBIDDEN for char in key))


def record_values(properties: Properties, reserved: tuple[str, ...]) -> dict[str, PropertyValue | dict]:
    """A record's property cells: one column per key, or all of them in one JSON `properties` cell."""
    if all(field_name_ok(key, reserved) for key, _ in properties):
        return dict(properties)
    return {NESTED: dict(properties)} if properties else {}


def read_properties(row: dict, fields: tuple[str, ...], where: str) -> dict[str, PropertyValue]:
    """The properties of a decoded row: its cells other than `fields` (null: no such property), or its JSON
    `properties` cell."""
    columns: dict[str, PropertyValue] = {}
    for key, value in row.items():
        if key in fields or key == NESTED or value is None:
            continue
        if not isinstance(value, (str, bool, int, float)):
            raise FormatError(f"the cell {key!r:.40} holds a {type(value).__name__}", where,
                              "write a property as text, a number, true or false")
        columns[key] = value
    if row.get(NESTED) is None:
        return columns
    if columns:
        raise FormatError("a row has both a properties cell and property columns", where,
                          "write a record's properties either as columns or in its properties cell")
    return _nested(row[NESTED], where)


def _nested(value: object, where: str) -> dict:
    if isinstance(value, str):
        try:
            nested = json.loads(value)
        except (ValueError, RecursionError):
            nested = None
        if isinstance(nested, dict):
            return nested
    raise FormatError(f"the properties cell is not a JSON object: {str(value)[:40]!r}", where,
                      'write the properties cell as a quoted JSON object, like "{\\"a b\\": 1}"')


def parse(text: str) -> ison_parser.Document:
    """ison_parser.loads with every failure turned into a FormatError that says where."""
    try:
        return ison_parser.loads(text)
    except ison_parser.ISONSyntaxError as error:
        raise FormatError(f"invalid ISON: {str(error)[:120]}", f"line {error.line}" if error.line else "document",
                          "see the format's grammar: a kind.name header, a line of fields, then one row per record",
                          line=error.line or None) from None
    except ValueError as error:  # an integer of more than 4,300 digits
        raise FormatError(f"unreadable ISON value ({str(error)[:80]}): too many digits", "document",
                          "write numbers with at most a few hundred digits, or as text") from None
    except (ison_parser.ISONError, RecursionError, IndexError, KeyError, TypeError, AttributeError) as error:
        raise FormatError(f"invalid ISON: {str(error)[:120]}", "document", "see the format's grammar") from None
