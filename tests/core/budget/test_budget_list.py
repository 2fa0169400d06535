"""The one budget-list grammar: commas and/or whitespace between whole numbers of tokens from 1 to 10,000,000."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.budget.budget_list import MAX_BUDGET, PAGE_BUDGETS, parse_budgets
from core.errors import ParameterError


def test_commas_and_spaces_both_separate_budgets():
    assert parse_budgets("512,1024") == (512, 1024)
    assert parse_budgets("512 1024") == (512, 1024)
    assert parse_budgets(" 4096, 256\t1024 ,256\n") == (256, 1024, 4096)


def test_underscores_group_digits_as_python_writes_numbers():
    assert parse_budgets("16_384, 1_000_000") == (16_384, 1_000_000)


def test_zero_is_refused_because_nothing_fits_in_it():
    with pytest.raises(ParameterError, match=r"budget 0 keeps nothing.*give budgets of 1 token or more"):
        parse_budgets("0,512")


def test_a_semicolon_is_named_as_the_wrong_separator():
    with pytest.raises(ParameterError, match=r"';' does not separate budgets \(in '512;1024'\).*commas or spaces"):
        parse_budgets("512;1024")


@pytest.mark.parametrize(("text", "message"), [
    ("", "no budget was given"),
    (" , ", "no budget was given"),
    ("12a", "'12a' is not a whole number of tokens"),
    ("1.5", "'1.5' is not a whole number of tokens"),
    ("2k", "'2k' is not a whole number of tokens"),
    ("512,-5", "budget -5 is negative"),
    ("1__000", "'1__000' is not a whole number of tokens"),
    ("20000000", "budget 20,000,000 is above 10,000,000 tokens"),
])
def test_a_bad_budget_list_says_what_is_wrong_where_and_how_to_fix_it(text, message):
    with pytest.raises(ParameterError, match=message) as caught:
        parse_budgets(text)
    assert caught.value.where == "budget list" and caught.value.fix


def test_a_page_caps_how_many_budgets_it_draws():
    assert len(parse_budgets(" ".join(map(str, range(1, 40))))) == 39  # no cap unless asked
    with pytest.raises(ParameterError, match=f"39 budgets were given.*give at most {PAGE_BUDGETS}"):
        parse_budgets(",".join(map(str, range(1, 40))), most=PAGE_BUDGETS)


separators = st.lists(st.sampled_from([",", " ", ", ", "\t", " ,\n"]), min_size=1, max_size=3).map("".join)


@given(st.lists(st.integers(1, MAX_BUDGET), min_size=1, max_size=30), st.data())
def test_any_list_written_in_the_grammar_reads_back_sorted_without_repeats(budgets, data):
    text = budgets[0].__str__()
    for budget in budgets[1:]:
        written = f"{budget:_}" if data.draw(st.booleans()) else str(budget)
        text += data.draw(separators) + written
    assert parse_budgets(text) == tuple(sorted(set(budgets)))


@pytest.mark.parametrize("digits", [13, 5_000])
def test_a_budget_of_thousands_of_digits_is_refused_as_too_large(digits):
    """D12: 5,000 digits in the budgets URL parameter raised Python's ValueError (4,300-digit limit)."""
    with pytest.raises(ParameterError, match="is above"):
        parse_budgets("512," + "9" * digits)
    assert parse_budgets("000512") == (512,)


def test_the_longest_budget_list_a_page_accepts_fits_a_short_url():
    """D30 (right as it is): the web server refuses ~100 KB URLs with HTTP 400; no valid list comes near that."""
    longest = ",".join(str(MAX_BUDGET - index) for index in range(PAGE_BUDGETS))
    assert len(parse_budgets(longest, most=PAGE_BUDGETS)) == PAGE_BUDGETS and len(longest) < 300
    with pytest.raises(ParameterError, match=f"give at most {PAGE_BUDGETS}"):
        parse_budgets(",".join(str(512 + index) for index in range(25_000)), most=PAGE_BUDGETS)
