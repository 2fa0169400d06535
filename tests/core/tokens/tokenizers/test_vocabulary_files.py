"""Rank tables read from the vocabulary files that packages ship."""

from __future__ import annotations

import base64

import pytest

from core.errors import GraphContextError
from core.tokens.tokenizers.vocabulary_files import tiktoken_ranks


def test_a_tiktoken_file_gives_each_tokens_bytes_their_rank():
    data = b"".join(base64.b64encode(token) + b" %d\n" % rank
                    for rank, token in enumerate([b"a", b" the", b"\xe2\x80", b"\n"]))
    assert tiktoken_ranks(data) == {b"a": 0, b" the": 1, b"\xe2\x80": 2, b"\n": 3}


def test_blank_lines_and_a_missing_final_newline_are_read_as_tiktoken_reads_them():
    assert tiktoken_ranks(b"YQ== 0\n\nIHRoZQ== 1") == {b"a": 0, b" the": 1}


def test_a_line_without_its_rank_is_refused():
    with pytest.raises(GraphContextError, match="no rank"):
        tiktoken_ranks(b"YQ== 0\nIHRoZQ==\n")
