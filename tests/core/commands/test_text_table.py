"""The CLI's fixed-width tables: names left, figures right, a rule as wide as the header."""

from __future__ import annotations

from core.commands.text_table import text_table


def test_names_align_left_figures_right_under_a_rule():
    table = text_table({"format": ["jsonl", "pretty_json"], "tokens": ["1,024", "12"]})
    assert table.split("\n") == ["format      tokens",
                                 "------------------",
                                 "jsonl        1,024",
                                 "pretty_json     12"]


def test_a_table_without_rows_is_its_header_and_rule():
    assert text_table({"format": [], "tokens": []}) == "format tokens\n-------------"
