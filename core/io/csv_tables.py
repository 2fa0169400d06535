"""Reading a CSV table with a header at the import boundary: csv.DictReader rules, every fault a LoadError.

A BOM is accepted; an empty file, a missing or unnamed column, a row with more or fewer fields than
the header, a field over the csv module's 131,072 characters or over the string limit are refused
with the file and line.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence

from core.errors import LoadError, listed, shortened
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.text import decode_utf8, line_of

Row = tuple[int, dict[str, str]]  # (line where the row ends, column -> field)


def read_table(data: bytes, source: str, required: tuple[str, ...], *,
               limits: Limits = DEFAULT_LIMITS) -> tuple[list[str], list[Row]]:
    """The header and the rows; `required` columns must be in the header."""
    limits.check_bytes(len(data), source)
    text = decode_utf8(data, source)
    unterminated = _unterminated_quote(text, source)
    if unterminated is not None:  # csv would read the rest of the file as one field, silently
        raise unterminated
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        header = _header(reader.fieldnames, source, required)
        fix_row = (f"give every row the {len(header):,} columns of the header ({shortened(','.join(header), 120)}); "
                   "quote a value holding a comma, a quote or a line break")
        rows = [_checked(row, reader.line_num, source, fix_row, limits) for row in reader]
    except csv.Error as error:
        raise LoadError(f"the CSV cannot be read: {error}", f"{source}, line {reader.line_num}",
                        "quote fields that hold commas, quotes or line breaks; keep each field under "
                        "131,072 characters") from None
    return header, rows


def _unterminated_quote(text: str, source: str) -> LoadError | None:
    """A quote that never closes swallows the rest of the file into one field; name it, not the short row.

    Quotes inside a quoted field are doubled, so a file whose quoted fields all close holds an even
    number of them; with an odd number, a last quote at the start of a field opens one that never
    closes (a lone quote inside an unquoted value, `5'10"`, is read as it is)."""
    if text.count('"') % 2 == 0:
        return None
    opening = text.rfind('"')
    if opening > 0 and text[opening - 1] not in ",\r\n\ufeff":
        return None
    line = line_of(text, opening)
    column = opening - (text.rfind("\n", 0, opening) + 1) + 1
    return LoadError("a quoted field is never closed: the quote opens a field that runs to the end of the file",
                     f"{source}, line {line}, column {column}",
                     'close the quote, or double a quote that is part of the value ("")')


def _header(header: Sequence[str] | None, source: str, required: tuple[str, ...]) -> list[str]:
    if header is None:
        raise LoadError("the file is empty", source, f"start with a header line naming the columns {','.join(required)}")
    missing = [column for column in required if column not in header]
    if missing:
        raise LoadError(f"the header lacks the column(s) {listed(missing)}; it reads {shortened(','.join(header), 200)!r}",
                        f"{source}, line 1", f"start with a header line naming the columns {','.join(required)}")
    unnamed = [str(index) for index, name in enumerate(header, start=1) if not name.strip()]
    if unnamed:
        raise LoadError(f"column(s) {listed(unnamed)} of the header have no name", f"{source}, line 1",
                        "name every column, or remove the trailing comma")
    repeated = sorted(name for name, count in Counter(header).items() if count > 1)
    if repeated:
        raise LoadError(f"the header names the column(s) {listed(repeated)} more than once",
                        f"{source}, line 1", "name each column once")
    return list(header)


def _checked(row: dict, line: int, source: str, fix: str, limits: Limits) -> Row:
    """csv.DictReader files extra fields under the key None and fills missing ones with None."""
    where = f"{source}, line {line}"
    if None in row:
        raise LoadError(f"the row has {len(row[None])} field(s) more than the header", where, fix)
    missing = [name for name, value in row.items() if value is None]
    if missing:
        raise LoadError(f"the row has no field for the column(s) {listed(missing)}", where, fix)
    for name, value in row.items():
        limits.check_string(value, source, f"line {line}, column {name[:40]!r}")
    return line, row
