"""The whole request counted from the data's own count equals an encode of the whole request built by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.prompt.answers import schema_for
from core.prompt.frame import TEMPLATE
from core.prompt.whole_request import WholeRequest, frame_head
from core.tokens import MODELS, TOKENIZERS
from core.tokens.chat_wrapper import CHAT_TEMPLATES, LLAMA3_CHAT, OPENAI_CHAT, QWEN25_CHAT, QWEN25_DEFAULT_SYSTEM
from tests.hypothesis_profiles import cross_product

GRAPH = service_graph(4, 3, 7)
SCHEMA = schema_for("impact_owners", {"affected_services": ["svc-1"], "owners": ["team-core"]})
QUESTION = "Which teams own the services affected if db-core fails?"
JSONL = FORMATS.get("jsonl")


def prompt_by_hand(data: str, format_name: str = "jsonl", grammar: str = JSONL.grammar) -> str:
    """The answer frame filled by plain string replacement (core.prompt.frame fills it from its pieces)."""
    return (TEMPLATE.replace("{answer_schema}", SCHEMA.example_json()).replace("{question}", QUESTION)
            .replace("{format_name}", format_name).replace("{grammar}", grammar).replace("{graph_data}", data))


def request(template, tokenizer_name: str) -> WholeRequest:
    return WholeRequest(template, TOKENIZERS.get(tokenizer_name), frame_head(SCHEMA, QUESTION, "jsonl", JSONL.grammar))


def test_gpt_4o_s_request_is_the_cookbook_count_of_the_prompt_built_by_hand():
    o200k = TOKENIZERS.get("o200k_base")
    data = JSONL.render(GRAPH, graph_units(GRAPH)).text + "\n[9 of 9 records shown]"
    by_hand = 3 + len(o200k.encode("user")) + len(o200k.encode(prompt_by_hand(data))) + 3
    assert request(OPENAI_CHAT, "o200k_base").tokens(data, o200k.count(data)) == by_hand


def test_qwen_s_chatml_request_is_its_pieces_encoded_by_hand():
    qwen = TOKENIZERS.get("qwen")
    data = JSONL.render(GRAPH, graph_units(GRAPH)[:5]).text
    # <|im_start|>system\n...<|im_end|>\n<|im_start|>user\n...<|im_end|>\n<|im_start|>assistant\n: 5 special tokens
    pieces = ["system\n" + QWEN25_DEFAULT_SYSTEM, "\n", "user\n" + prompt_by_hand(data), "\n", "assistant\n"]
    by_hand = 5 + sum(len(qwen.encode(piece)) for piece in pieces)
    assert request(QWEN25_CHAT, "qwen").tokens(data, qwen.count(data)) == by_hand


def test_llama_3_strips_the_content_so_a_trailing_blank_is_counted_whole():
    whole = request(LLAMA3_CHAT, "llama3")
    llama = TOKENIZERS.get("llama3")
    data = JSONL.render(GRAPH, graph_units(GRAPH)).text + "\n\n"
    assert whole.tokens(data, llama.count(data)) == whole.whole(data) and whole.counted_whole == 1
    plain = data.rstrip()
    assert whole.tokens(plain, llama.count(plain)) == whole.whole(plain) and whole.counted_whole == 1


def test_a_context_that_spells_a_special_token_is_counted_whole():
    whole = request(QWEN25_CHAT, "qwen")
    data = '{"id": "<|im_end|>"}'
    assert whole.tokens(data, TOKENIZERS.get("qwen").count(data)) == whole.whole(data) and whole.counted_whole == 1


EDGES = st.sampled_from(["", "\n", "\n\n", " ", "/", "/x", "{", "}", "a", "1", "'s", "é", "\t", "<|im_end|>", "]"])


@pytest.mark.parametrize("family", sorted(CHAT_TEMPLATES))
@cross_product(60, 12)
@given(head=EDGES, body=st.text(max_size=40), tail=EDGES)
def test_the_edge_corrected_count_equals_the_whole_requests_for_every_template(family, head, body, tail):
    tokenizer_name = MODELS.get(family).tokenizer
    whole = request(CHAT_TEMPLATES[family], tokenizer_name)
    data = head + body + tail
    assert whole.tokens(data, TOKENIZERS.get(tokenizer_name).count(data)) == whole.whole(data)

