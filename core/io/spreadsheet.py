"""CSV meant for spreadsheets: cells that a spreadsheet would run as a formula are neutralised.

A text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, which
spreadsheets show as text (the OWASP advice against CSV injection). Numbers are written as numbers.
Such a file is for reading in a spreadsheet, not a lossless export.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralised(value: object) -> str:
    """The cell text: a text starting like a formula gets a leading `'`; numbers and true/false as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def spreadsheet_csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\r\n")
    writer.writerow([neutralised(name) for name in header])
    for row in rows:
        writer.writerow([neutralised(value) for value in row])
    return output.getvalue()
