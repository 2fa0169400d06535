"""Every table the dashboard draws, in the one number style (core.number_style) with titles in words."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from core.number_style import MISSING, column_formatters, kind_of, missing, share
from core.reports.column_words import words


def share_cell(value: object) -> str:
    return MISSING if missing(value) else share(value)  # type: ignore[arg-type]

HIGHLIGHT = "background-color: #dcfce7; font-weight: 600"


def styled(frame: pd.DataFrame, highlighted: Callable[[pd.Series], bool] | None = None,
           share_columns: bool = False) -> Styler:
    """The frame with every numeric cell written in the number style, and the rows
    `highlighted` picks marked. `share_columns`: the numeric columns whose names follow no rule hold shares (a
    pivot whose columns are orderings or formats)."""
    numeric = [column for column in frame.columns if pd.api.types.is_numeric_dtype(frame[column])
               and not pd.api.types.is_bool_dtype(frame[column])]
    integral = [column for column in numeric if pd.api.types.is_integer_dtype(frame[column])]
    formatters = column_formatters(frame.columns, numeric, integral)
    if share_columns:  # the columns whose names say nothing (orderings, formats) hold shares
        formatters |= {column: share_cell for column in numeric if kind_of(str(column)) == "decimal"}
    style = frame.style.format(formatters, na_rep="—")
    if highlighted is not None:
        style = style.apply(lambda row: [HIGHLIGHT if highlighted(row) else ""] * len(row), axis=1)
    return style


def show_table(frame: pd.DataFrame, key: str, highlighted: Callable[[pd.Series], bool] | None = None,
               column_config: dict | None = None, container=st, share_columns: bool = False, rename: bool = True,
               **options) -> object:
    """`st.dataframe` of the styled frame: headers in words unless `column_config` names them (or `rename` is
    False: the columns are registered names, such as tokenizers), no number formats but the style's (a column
    config's own format would override it)."""
    if pd.api.types.is_numeric_dtype(frame.index) and not isinstance(frame.index, pd.RangeIndex):
        # Streamlit draws an index with its own number rules ("1200"): a numeric index becomes a styled column.
        frame = frame.reset_index()
        options["hide_index"] = True
    config = {column: words(column) for column in frame.columns
              if rename and not isinstance(column, tuple) and str(column) != words(column)}
    config.update(column_config or {})
    options.setdefault("width", "stretch")
    return container.dataframe(styled(frame, highlighted, share_columns), key=key, column_config=config, **options)
