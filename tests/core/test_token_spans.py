"""Token end offsets split a text exactly where the tokenizer does."""

from __future__ import annotations

from hypothesis import given, strategies as st

from core.registry import TOKENIZERS
from core.token_spans import token_ends

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
