"""Which counter an evaluation's prompt tokens come from, for each kind of endpoint (no request is sent)."""

from __future__ import annotations

from core.evaluate.model_server import BUNDLED_MODEL, bundled_model_file
from core.evaluate.request_counters import endpoint_counter
from core.tokens import TOKENIZERS

MESSAGES = [{"role": "user", "content": "Which team owns svc-auth?"}]


def test_a_family_named_by_the_model_or_the_option_counts_with_its_template():
    counter, line = endpoint_counter("gpt-4o", "o200k_base")
    o200k = TOKENIZERS.get("o200k_base")
    # OpenAI's rule: 3 tokens per message and its role, 3 priming the reply
    assert counter is not None and counter.count(MESSAGES) == 3 + o200k.count("user") + o200k.count(
        MESSAGES[0]["content"]) + 3
    assert "openai-chat" in line
    llama, _ = endpoint_counter("my-local-llama", "o200k_base", family="llama-3")
    assert llama is not None and llama.name.startswith("llama-3 (llama3 under its chat template llama3-chat")


def test_the_bundled_models_name_or_a_gguf_encoding_counts_with_the_file():
    path = str(bundled_model_file())
    by_name, _ = endpoint_counter(BUNDLED_MODEL, "o200k_base")
    by_file, line = endpoint_counter("anything", f"gguf:{path}")
    assert by_name is not None and by_file is not None and by_name.name == by_file.name and path in line


def test_an_unknown_model_or_a_family_without_a_template_counts_the_text_and_says_so():
    for model, family in (("some-hosted-model", None), ("claude-sonnet", "claude")):
        counter, line = endpoint_counter(model, "o200k_base", family)
        assert counter is None and "not as the model reads them" in line
    reference, line = endpoint_counter("oracle", "o200k_base")
    assert reference is None and "as the reference readers count them" in line
