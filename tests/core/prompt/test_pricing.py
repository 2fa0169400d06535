"""Cost: the seed's formula on reported usage, from an explicit price table; absent usage is not estimated."""

from __future__ import annotations

import pytest

from core.errors import ParameterError
from core.prompt.pricing import PriceTable, parse_price


def test_cost_is_the_seeds_formula():
    prices = PriceTable(input_per_million=2.5, output_per_million=10.0)
    assert prices.cost(1_000, 200) == pytest.approx(1_000 / 1e6 * 2.5 + 200 / 1e6 * 10.0)


def test_missing_usage_gives_no_cost_rather_than_an_estimate():
    assert PriceTable(1, 1).cost(None, 10) is None and PriceTable(1, 1).cost(10, None) is None


def test_price_tables_round_trip_through_json_and_parse_from_the_command_line():
    prices = parse_price("0.15,0.6")
    assert prices == PriceTable(0.15, 0.6) and PriceTable.from_json(prices.to_json()) == prices


@pytest.mark.parametrize("text", ["0.15", "a,b", "1,2,3", "-1,2", "nan,1"])
def test_bad_prices_are_refused_with_a_fix(text):
    with pytest.raises(ParameterError, match=r"INPUT,OUTPUT|price"):
        parse_price(text)
