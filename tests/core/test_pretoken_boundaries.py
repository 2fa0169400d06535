"""Forced pre-token boundaries: splitting the text there never changes its encoding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.pretoken_boundaries import forced_boundaries, rules_apply
from core.registry import TOKENIZERS

# Characters around which tiktoken's pre-tokenizer is subtle: newlines before "/", blank lines,
# apostrophes (contractions), marks, digits, Unicode spaces and letters.
TRICKY = list("aZq09 '\"/\\\n\r\t,.:;{}[]|-_#@") + ["\n\n", " \n", "\u0301", "\u00a0", "\u2028", "\x85", "\x1c",
                                                      "é", "日", "ǅ", "'s", "'LL", "123456", "\r\n", "//", ",\n/"]
texts = st.one_of(st.lists(st.sampled_from(TRICKY), max_size=40).map("".join), st.text(max_size=60))


@pytest.mark.parametrize("name", TOKENIZERS.names())
def test_the_rules_are_trusted_only_for_the_analysed_patterns(name):
    assert rules_apply(TOKENIZERS.get(name).encoding._pat_str)
    assert not rules_apply(r"\w+|\s+")


def test_boundaries_follow_letters_digits_and_line_feeds():
    assert forced_boundaries(b'"id": "svc-api"').tolist() == [3, 10, 14]
    assert forced_boundaries(b"ab,\n/x\nN|1").tolist() == [2, 6, 7, 8]  # not before "/" after a line feed
    assert forced_boundaries(b"x").tolist() == [] and forced_boundaries(b"").tolist() == []


@pytest.mark.parametrize("name", TOKENIZERS.names())
@given(text=texts, data=st.data())
def test_encoding_splits_at_every_forced_boundary_in_any_context(name, text, data):
    tokenizer = TOKENIZERS.get(name)
    data_bytes = text.encode("utf-8", "surrogatepass")
    for boundary in forced_boundaries(data_bytes).tolist():
        head = data_bytes[:boundary].decode("utf-8")
        end = data.draw(st.integers(min_value=boundary + 1, max_value=len(data_bytes)))
        while end < len(data_bytes) and data_bytes[end] & 0xC0 == 0x80:
            end += 1  # keep whole characters
        tail = data_bytes[boundary:end].decode("utf-8")
        assert tokenizer.encode(head + tail) == tokenizer.encode(head) + tokenizer.encode(tail)
