"""The error family: every message bounded, however much of the user's text it quotes."""

from __future__ import annotations

from core.errors import LONGEST_PART, LoadError, listed, shortened


def test_a_long_text_is_cut_with_an_ellipsis_and_its_length():
    assert shortened("abc", 5) == "abc"
    assert shortened("x" * 5_000_000, 10) == "xxxxxxxxxx… (5,000,000 characters in all)"


def test_a_long_list_shows_its_first_items_and_how_many_more():
    assert listed(["a", "b"]) == "a, b"
    assert listed([f"c{index}" for index in range(500_000)], 3) == "c0, c1, c2… and 499,997 more"
    assert listed(["y" * 500], 1, each=4) == "yyyy… (500 characters in all)"


def test_every_part_of_a_message_is_bounded():
    """N4 and any message like it: a part quoting 5 MB of the user's text is cut, so the line stays readable."""
    error = LoadError("the header reads " + "h," * 2_500_000, "f.csv, line 1, column " + "c" * 10_000, "fix " * 5_000)
    assert len(str(error)) < 4 * LONGEST_PART
    assert error.what.endswith("… (5,000,017 characters in all)") and str(error).startswith("the header reads h,h,")
    assert LoadError("short", "f.csv", "fix it").args[0] == "short (at f.csv). Fix: fix it"
