"""Counting and encoding in pieces cut at forced pre-token boundaries give every tokenizer's exact count and tokens of
the whole text."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.samples import load_sample
from core.tokens import TOKENIZERS
from core.tokens.piece_count import count_in_pieces, encode_in_pieces, text_pieces
from core.tokens.protocol import tokenizable
from core.tokens.tokenizers.huggingface_engine import HuggingFaceTokenizer
from tests.hypothesis_profiles import cross_product

# Letters, digits, newlines, quotes, JSON punctuation and non-ASCII: every kind the boundary rules look at.
TEXTS = st.text(st.sampled_from(list("ab Z9 0\n\n\t{}\":,'/-_é漢\u0301😀")) | st.characters(), max_size=300)


def rendered(format_name: str, sample: str) -> str:
    graph = load_sample(sample)
    return FORMATS.get(format_name).render(graph, graph_units(graph)).text


@given(text=TEXTS, piece_bytes=st.integers(1, 64))
@settings(max_examples=60, deadline=None)
def test_the_pieces_join_to_the_text(text, piece_bytes):
    tokenizer = TOKENIZERS.get("o200k_base")
    assert "".join(text_pieces(text, tokenizer.forced_boundaries, piece_bytes)) == tokenizable(text)


@pytest.mark.parametrize("name", TOKENIZERS.names())
@cross_product(25, small=10)
@given(text=TEXTS, piece_bytes=st.integers(1, 64))
def test_a_count_in_small_pieces_is_the_whole_texts_count(name, text, piece_bytes):
    tokenizer = TOKENIZERS.get(name)
    pieces = count_in_pieces(text, lambda piece: len(tokenizer.encode(piece)), tokenizer.forced_boundaries,
                             piece_bytes)
    assert pieces == len(tokenizer.encode(text))


@pytest.mark.parametrize("name", TOKENIZERS.names())
def test_a_rendering_cut_into_many_pieces_counts_as_its_whole_encode(name):
    tokenizer = TOKENIZERS.get(name)
    text = rendered("pretty_json", "nvidia-jetson")
    assert len(list(text_pieces(text, tokenizer.forced_boundaries, 512))) > 10 or not len(
        tokenizer.forced_boundaries(text.encode()))
    assert count_in_pieces(text, lambda piece: len(tokenizer.encode(piece)), tokenizer.forced_boundaries,
                           512) == len(tokenizer.encode(text))


def test_a_text_over_a_megabyte_is_counted_exactly():
    tokenizer = TOKENIZERS.get("o200k_base")
    text = rendered("compact_json", "reference-services") * 200
    assert len(text.encode()) > 1 << 20
    assert tokenizer.count(text) == len(tokenizer.encode(text))


@pytest.mark.parametrize("name", TOKENIZERS.names())
@cross_product(25, small=10)
@given(text=TEXTS, piece_bytes=st.integers(1, 64))
def test_pieces_encoded_at_once_join_to_the_whole_texts_tokens(name, text, piece_bytes):
    tokenizer = TOKENIZERS.get(name)
    whole = tokenizer.encode(text)  # the engine's own encode of the whole text, in one call
    in_pieces = encode_in_pieces(text, lambda piece: np.array(tokenizer.encode(piece), dtype=np.int64),
                                 tokenizer.forced_boundaries, piece_bytes)
    assert in_pieces.tolist() == whole


@pytest.mark.parametrize("name", [name for name in TOKENIZERS.names()
                                  if isinstance(TOKENIZERS.get(name), HuggingFaceTokenizer)])  # tiktoken's: whole
def test_a_text_over_a_megabyte_is_encoded_in_pieces_as_a_whole(name):
    tokenizer = TOKENIZERS.get(name)
    text = rendered("compact_json", "reference-services") * 200
    assert len(list(text_pieces(text, tokenizer.forced_boundaries))) > 1
    assert tokenizer.encode_array(text).tolist() == tokenizer.encode(text)
