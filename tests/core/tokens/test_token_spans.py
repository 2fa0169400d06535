"""Token end offsets split a text exactly where the tokenizer does."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.tokens import TOKENIZERS
from core.tokens.token_spans import token_ends
from tests.hypothesis_profiles import cross_product

TOKENIZER = TOKENIZERS.get("o200k_base")


@given(st.text(max_size=60))
def test_the_pieces_rebuild_the_text_and_never_split_a_character(text):
    ends = token_ends(TOKENIZER, text)
    starts = (0,) + ends[:-1]
    assert "".join(text[start:end] for start, end in zip(starts, ends)) == text
    assert list(ends) == sorted(set(ends)) and all(end > 0 for end in ends)


def test_each_piece_is_one_token_in_plain_text():
    text = '{"id": "svc-api", "type": "service"}\n'
    ends = token_ends(TOKENIZER, text)
    assert len(ends) == TOKENIZER.count(text)
    assert text[: ends[0]] == TOKENIZER.decode(TOKENIZER.encode(text)[:1])


def test_an_empty_text_has_no_tokens():
    assert token_ends(TOKENIZER, "") == ()


@pytest.mark.parametrize("name", TOKENIZERS.names())
@cross_product(60)
@given(text=st.text(max_size=40))
def test_every_tokenizer_splits_a_text_into_whole_characters(name, text):
    tokenizer = TOKENIZERS.get(name)
    ends = token_ends(tokenizer, text)
    assert list(ends) == sorted(set(ends)) and (not text or ends[-1] == len(text))
    if text.isascii():  # one piece per token: what the Contexts page colours
        assert len(ends) == tokenizer.count(text)


def whole_ends_within(text: str, low: int, high: int) -> list[int]:
    return [end for end in token_ends(TOKENIZER, text) if low < end <= high]


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base", "llama3", "deepseek"])
def test_a_page_window_of_a_text_without_newlines_is_short_and_tokenizes_as_the_whole_text(name):
    from core.tokens.token_spans import window_bounds

    tokenizer = TOKENIZERS.get(name)
    text = "".join(f'{{"id":"n-{index}","type":"service","label":"Ser vice {index}!"}},' for index in range(3_000))
    start, end = 60_000, 62_000  # one page in the middle of one long line
    low, high = window_bounds(tokenizer, text, start, end)
    assert low <= start and end <= high and high - low < 10_000  # not the whole 180,000-character line
    window = [low + offset for offset in token_ends(tokenizer, text[low:high])]
    whole = [offset for offset in token_ends(tokenizer, text) if low < offset <= high]
    assert window == whole


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab {}":,\n/\u00e9\u4e2d1 ')), min_size=1, max_size=400),
       st.integers(0, 400), st.integers(0, 80))
def test_any_window_tokenizes_exactly_as_the_whole_text_there(text, start, length):
    from core.tokens.token_spans import window_bounds

    start = min(start, len(text))
    end = min(len(text), start + length)
    low, high = window_bounds(TOKENIZER, text, start, end)
    assert 0 <= low <= start <= end <= high <= len(text)
    window = [low + offset for offset in token_ends(TOKENIZER, text[low:high])]
    assert window == whole_ends_within(text, low, high)
