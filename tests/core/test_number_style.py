"""The one number style: counts with separators, shares as percentages by one rule, rates in a readable unit."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.number_style import (
    column_formatters,
    kind_of,
    money,
    per_token_rate,
    share,
    signed_share,
    signed_whole,
    unformatted_numbers,
    whole,
)


def test_counts_are_whole_numbers_with_thousands_separators():
    assert whole(4023) == "4,023"
    assert whole(875.222) == "875"
    assert whole(float("nan")) == "—"


@pytest.mark.parametrize(("value", "text"), [(0, "0%"), (0.45, "45%"), (0.8784, "88%"), (1, "100%"),
                                             (0.004, "0.4%"), (0.996, "99.6%"), (0.6612, "66%"),
                                             (0.00001, "<0.1%"), (0.99999, ">99.9%")])
def test_shares_are_whole_percentages_unless_that_would_read_0_or_100(value, text):
    assert share(value) == text


@given(st.floats(min_value=0, max_value=1))
def test_a_share_never_reads_0_or_100_percent_unless_it_is(value):
    text = share(value)
    assert (text == "0%") == (value == 0)
    assert (text == "100%") == (value == 1)
    assert not unformatted_numbers(text)


def test_rds_gets_a_unit_instead_of_scientific_notation():
    assert per_token_rate(6.348e-4) == "0.63 per 1,000 tokens"
    assert "e" not in money(0.000123)
    assert money(0.000123) == "0.000123 USD"


def test_differences_carry_their_sign():
    assert (signed_whole(12), signed_whole(-3), signed_whole(0)) == ("+12", "−3", "0")


def test_a_signed_share_is_a_share_with_its_sign():
    assert (signed_share(0.123), signed_share(-0.43), signed_share(0), signed_share(None)) == ("+12%", "−43%", "0%", "—")
    assert (signed_share(-0.004), signed_share(1.5)) == ("−0.4%", "+150%")  # an over-count can pass 100%


@pytest.mark.parametrize(("column", "kind"), [("evidence_survival", "share"), ("traversal accuracy", "share"),
                                              ("budgeted_tokens", "count"), ("budget_90", "count"), ("rds", "rate"),
                                              ("efficiency", "per_thousand"), ("o200k_base", "decimal")])
def test_a_columns_rule_comes_from_the_words_of_its_name(column, kind):
    assert kind_of(column) == kind


def test_integer_columns_are_counts_and_float_columns_follow_their_name():
    formatters = column_formatters(["tokens", "evidence_survival", "format"], ["tokens", "evidence_survival"],
                                   ["tokens"])
    assert set(formatters) == {"tokens", "evidence_survival"}
    assert formatters["tokens"](4023) == "4,023"
    assert formatters["evidence_survival"](0.5) == "50%"
    assert formatters["evidence_survival"](math.nan) == "—"


def test_the_scan_finds_each_way_a_figure_breaks_the_style():
    text = "4023 beside 4,023; 0.8784 beside 88%; 875.222 tokens; RDS 6.348e-4; 66.12% beside 56.1%"
    assert unformatted_numbers(text) == ["4023", "0.8784", "875.222", "6.348e-4", "66.12%"]


def test_identifiers_dates_and_styled_figures_are_not_figures_to_fix():
    assert unformatted_numbers("svc-noise-0016 · o200k_base · hash 2f4f02d53cb1 · 2026-12-03 · 1,030 · 45% · "
                               "0.63 per 1,000 tokens · 1.00 · 0.000164 USD") == []
    assert unformatted_numbers("0.0001645") == ["0.0001645"]  # a fourth significant digit is noise
