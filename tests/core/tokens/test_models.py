"""Model families map to the tokenizer that counts for them; stand-ins are marked approximate."""

from __future__ import annotations

from core.tokens import MODELS, TOKENIZERS
from core.tokens.models import approximate_count


def test_each_family_reads_with_its_vendors_tokenizer():
    expected = {"gpt-4o": "o200k_base", "gpt-4": "cl100k_base", "gpt-oss": "o200k_harmony", "llama-3": "llama3",
                "qwen": "qwen", "mistral": "tekken", "deepseek": "deepseek"}
    for name, tokenizer in expected.items():
        model = MODELS.get(name)
        assert model.tokenizer == tokenizer and not model.approximate and model.describe().endswith(tokenizer)


def test_models_without_a_public_tokenizer_say_so_and_name_the_stand_in():
    for name in ("claude", "gemini"):
        model = MODELS.get(name)
        assert model.approximate and "no tokenizer" in model.note and model.tokenizer in model.note
        assert model.tokenizer in TOKENIZERS and "approximate" in model.describe()


def test_every_registered_tokenizer_serves_some_model():
    assert {MODELS.get(name).tokenizer for name in MODELS} == set(TOKENIZERS.names())


def test_an_approximate_count_is_marked():
    assert approximate_count(12345, True) == "≈12,345" and approximate_count(12345, False) == "12,345"
