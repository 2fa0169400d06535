"""`gguf:PATH` counts what llama.cpp counts: the same ids as llama.cpp's own tokenizer on the same file.

The reference is llama.cpp itself (xllamacpp's server, `/tokenize` without special-token parsing) on
the bundled SmolLM2 GGUF, over every format of every sample, the special-looking labels and hypothesis text.
"""

from __future__ import annotations

import argparse
import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import GraphContextError, UnknownNameError
from core.formats import FORMATS
from core.formats.base import Rendering
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens
from core.tokens.pretoken_boundaries import forced_boundaries
from core.tokens.tokenizers.gguf_file import (
    SUPPORTED_PRE_TOKENIZERS,
    gguf_metadata,
    gguf_tokenizer,
    tokenizer_definition,
)
from tests.core.tokens.tokenizers.test_vendor_equality import SPECIAL_LOOKING, rendered_texts
from tests.llama_server import smollm2_path


@pytest.fixture(scope="module")
def smollm2():
    return gguf_tokenizer(smollm2_path())


def test_the_file_is_read_from_its_metadata(smollm2):
    metadata = gguf_metadata(smollm2_path())
    assert (metadata.model, metadata.pre, len(metadata.tokens)) == ("gpt2", "smollm", 49152)
    assert metadata.token_text(metadata.eos_token_id) == "<|im_end|>" and metadata.context_length == 8192
    assert smollm2.name == f"gguf:{smollm2_path()}" and "smollm" in smollm2.family and not smollm2.approximate


def test_ids_and_counts_equal_llama_cpps_on_every_rendering(smollm2, smollm2_server):
    for label, text in rendered_texts():
        expected = smollm2_server.tokenize(text)
        assert smollm2.encode(text) == expected, label
        assert smollm2.count(text) == len(expected), label
        assert smollm2.encode_array(text).tolist() == expected, label


def test_special_token_text_is_never_parsed(smollm2, smollm2_server):
    for token in SPECIAL_LOOKING + ["<|im_end|>", "<repo_name>", "<jupyter_code>"]:
        assert smollm2.count(token) > 1, token
        assert smollm2.encode(token) == smollm2_server.tokenize(token)
        assert smollm2.decode(smollm2.encode(token)) == token


@given(text=st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=80)
       | st.lists(st.sampled_from(SPECIAL_LOOKING + list("ab1 \n\t,.'/\u0301é日") + ["'s", "  ", "\n\n", "123"]),
                  max_size=20).map("".join))
def test_any_text_encodes_as_llama_cpp_encodes_it(smollm2, smollm2_server, text):
    expected = smollm2_server.tokenize(text)
    assert smollm2.encode(text) == expected
    # SmolLM2 has no token for some bytes (0x04, 0xF1, ...): llama.cpp drops them, and so does the lab.
    assert b"".join(smollm2.token_bytes(expected)) == bytes(byte for byte in text.encode("utf-8")
                                                             if byte not in MISSING_BYTES)


MISSING_BYTES = {0x04, 0x06, 0x13, 0x14, 0x16, 0x1D, 0xC0, 0xC1, 0xF1, 0xF2} | set(range(0xF5, 0x100))


def test_bytes_without_a_token_are_dropped_as_llama_cpp_drops_them(smollm2, smollm2_server):
    text = "svc\x04-api \U00040000 \x1d"
    assert smollm2.encode(text) == smollm2_server.tokenize(text)
    # ... after merging: '/' and '<' merge when adjacent, not across the dropped 0x16 (found by hypothesis)
    assert smollm2.encode("/\x16<") == smollm2_server.tokenize("/\x16<") == smollm2.encode("/") + smollm2.encode("<")
    assert smollm2.count(text) == len(smollm2_server.tokenize(text))


def test_prefix_accounting_stays_exact_when_a_byte_is_dropped(smollm2):
    from core.graph.model import Edge, Graph, Node
    from core.graph.units import graph_units
    graph = Graph.build((Node("svc-1", "Service", {"label": "a\x04b \U00040000"}), Node("svc-2", "Service", {})),
                        (Edge("svc-1", "depends_on", "svc-2", {}),))
    for name in ("jsonl", "pretty_json", "csv"):
        rendering = FORMATS.get(name).render(graph, graph_units(graph))
        counts = prefix_tokens(rendering, smollm2).counts.tolist()
        assert counts == [smollm2.count(rendering.prefix_text(k)) for k in range(len(rendering.records) + 1)], name


@given(text=st.lists(st.sampled_from(list("aZ09 '\"/\n\t,.:{}-") + ["\n\n", "é", "日", "'s", "123"]), max_size=40)
       .map("".join) | st.text(max_size=60), data=st.data())
def test_encoding_splits_at_every_forced_boundary(smollm2, text, data):
    encoded = text.encode("utf-8", "surrogatepass")
    for boundary in smollm2.forced_boundaries(encoded).tolist():
        end = data.draw(st.integers(min_value=boundary + 1, max_value=len(encoded)))
        while end < len(encoded) and encoded[end] & 0xC0 == 0x80:
            end += 1
        head, tail = encoded[:boundary].decode("utf-8"), encoded[boundary:end].decode("utf-8")
        assert smollm2.encode(head + tail) == smollm2.encode(head) + smollm2.encode(tail)


def test_a_blank_line_is_no_forced_boundary_under_gpt2s_expression(smollm2):
    # "\n\n" alone is one pre-token; before "a" it gives up its last line feed.
    assert smollm2.encode("\n\na") != smollm2.encode("\n\n") + smollm2.encode("a")
    assert smollm2.forced_boundaries(b"\n\na").tolist() == [] and forced_boundaries(b"\n\na").tolist() == [2]
    assert smollm2.forced_boundaries(b"ab,1x").tolist() == [2, 4]


def test_prefix_accounting_is_exact_for_every_format(smollm2):
    from core.graph.units import graph_units
    from core.io.samples import load_sample
    graph = load_sample("adversarial")
    for name in FORMATS.names():
        rendering: Rendering = FORMATS.get(name).render(graph, graph_units(graph))
        counts = prefix_tokens(rendering, smollm2).counts.tolist()
        assert counts == [smollm2.count(rendering.prefix_text(k)) for k in range(len(rendering.records) + 1)], name


def test_gguf_names_work_wherever_an_encoding_is_accepted(smollm2):
    from core.commands.tokenizer_options import tokenizer_name, tokenizer_names
    name = f"gguf:{smollm2_path()}"
    assert name in TOKENIZERS and TOKENIZERS.get(name) is smollm2
    assert tokenizer_names(f"o200k_base,{name}") == ["o200k_base", name]
    with pytest.raises(argparse.ArgumentTypeError, match=r"no-such-model\.gguf"):
        tokenizer_name("gguf:/nowhere/no-such-model.gguf")
    with pytest.raises(UnknownNameError, match="gguf:PATH"):
        TOKENIZERS.get("no-such-tokenizer")


def test_a_file_that_is_not_gguf_is_refused_clearly(tmp_path):
    junk = tmp_path / "model.gguf"
    junk.write_bytes(b"not a model at all" * 10)
    with pytest.raises(GraphContextError, match="not a readable GGUF file"):
        gguf_tokenizer(str(junk))
    with pytest.raises(GraphContextError, match="is not a file"):
        gguf_tokenizer(str(tmp_path))


def test_an_unsupported_pre_tokenizer_is_refused_by_name():
    metadata = gguf_metadata(smollm2_path())
    with pytest.raises(GraphContextError, match="pre-tokenizer type 'deepseek-coder'") as refused:
        tokenizer_definition(dataclasses.replace(metadata, pre="deepseek-coder"))
    assert "smollm" in str(refused.value) and "smollm" in SUPPORTED_PRE_TOKENIZERS
    with pytest.raises(GraphContextError, match="tokenizer model 'bert'"):
        tokenizer_definition(dataclasses.replace(metadata, model="bert"))


def test_user_defined_tokens_are_refused_not_miscounted():
    # llama.cpp cuts user-defined tokens out of ordinary text; counting them as text would be wrong.
    metadata = gguf_metadata(smollm2_path())
    types = (4,) + metadata.token_types[1:]
    with pytest.raises(GraphContextError, match="user-defined tokens"):
        tokenizer_definition(dataclasses.replace(metadata, token_types=types))
