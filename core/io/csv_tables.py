"""Reading a CSV table with a header at the import boundary: csv.DictReader rules, every fault a LoadError.

A BOM is accepted; an empty file, a missing or unnamed column, a row with more or fewer fields than
the header, a field over the csv module's 131,072 characters or over the string limit are refused
with the file and line.
"""

from __future__ import annotations

import csv
import io

from core.errors import LoadError
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.text import decode_utf8

Row = tuple[int, dict[str, str]]  # (line where the row ends, column -> field)


def read_table(data: bytes, source: str, required: tuple[str, ...], *,
               limits: Limits = DEFAULT_LIMITS) -> tuple[list[str], list[Row]]:
    """The header and the rows; `required` columns must be in the header."""
    limits.check_bytes(len(data), source)
    reader = csv.DictReader(io.StringIO(decode_utf8(data, source), newline=""))
    try:
        header = _header(reader.fieldnames, source, required)
        fix_row = (f"give every row the {len(header)} columns of the header ({','.join(header)[:120]}); "
                   "quote a value holding a comma, a quote or a line break")
        rows = [_checked(row, reader.line_num, source, fix_row, limits) for row in reader]
    except csv.Error as error:
        raise LoadError(f"the CSV cannot be read: {error}", f"{source}, line {reader.line_num}",
                        "quote fields that hold commas, quotes or line breaks; keep each field under "
                        "131,072 characters") from None
    return header, rows


def _header(header: list[str] | None, source: str, required: tuple[str, ...]) -> list[str]:
    if header is None:
        raise LoadError("the file is empty", source, f"start with a header line naming the columns {','.join(required)}")
    missing = [column for column in required if column not in header]
    if missing:
        raise LoadError(f"the header lacks the column(s) {', '.join(missing)}; it reads {','.join(header)[:200]!r}",
                        f"{source}, line 1", f"start with a header line naming the columns {','.join(required)}")
    unnamed = [str(index) for index, name in enumerate(header, start=1) if not name.strip()]
    if unnamed:
        raise LoadError(f"column(s) {', '.join(unnamed)} of the header have no name", f"{source}, line 1",
                        "name every column, or remove the trailing comma")
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise LoadError(f"the header names the column(s) {', '.join(repeated)} more than once",
                        f"{source}, line 1", "name each column once")
    return list(header)


def _checked(row: dict, line: int, source: str, fix: str, limits: Limits) -> Row:
    """csv.DictReader files extra fields under the key None and fills missing ones with None."""
    where = f"{source}, line {line}"
    if None in row:
        raise LoadError(f"the row has {len(row[None])} field(s) more than the header", where, fix)
    missing = [name for name, value in row.items() if value is None]
    if missing:
        raise LoadError(f"the row has no field for the column(s) {', '.join(missing)}", where, fix)
    for name, value in row.items():
        limits.check_string(value, source, f"line {line}, column {name[:40]!r}")
    return line, row
