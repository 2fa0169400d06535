"""The CLI's fixed-width tables: cells formatted by the caller, laid out by pandas' DataFrame.to_string."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import pandas as pd


def text_table(columns: Mapping[str, Sequence[str]], left: Collection[str] = ("format",)) -> str:
    """A header, a rule as wide as it, then one line per row, columns one space apart.

    `columns` maps each header to its cells, already written as text (`1,024`, `0.75`, `LOSSY`);
    the columns named in `left` are aligned left (names), the others right (figures).
    """
    cells = {}
    for header, values in columns.items():
        values = [str(value) for value in values]
        if header in left:  # pad header and cells to one width, so to_string's right-justification keeps them left
            width = max([len(header), *map(len, values)])
            header, values = header.ljust(width), [value.ljust(width) for value in values]
        cells[header] = values
    frame = pd.DataFrame(cells)
    lines = frame.to_string(index=False).split("\n") if len(frame) else [" ".join(cells)]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])
