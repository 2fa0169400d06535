"""Token end offsets split a text exactly where the tokenizer does."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.registry import TOKENIZERS
from core.tokens.token_spans import token_ends

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
@settings(max_examples=20 if os.environ.get("CI") == "true" else 60)
@given(text=st.text(max_size=40))
def test_every_tokenizer_splits_a_text_into_whole_characters(name, text):
    tokenizer = TOKENIZERS.get(name)
    ends = token_ends(tokenizer, text)
    assert list(ends) == sorted(set(ends)) and (not text or ends[-1] == len(text))
    if text.isascii():  # one piece per token: what the Contexts page colours
        assert len(ends) == tokenizer.count(text)
