"""Which model will read the context: model families mapped to the tokenizer that counts for them.

A family with a public tokenizer maps to it exactly. Anthropic and Google publish none for their
current models, so a stand-in counts for them and every count is marked approximate.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelFamily:
    """A family of deployed models and the registered tokenizer that counts its tokens."""

    name: str  # registry and CLI name, e.g. "llama-3"
    title: str  # what a reader recognises, e.g. "Llama 3.x (Meta)"
    tokenizer: str  # a name in core.tokens.TOKENIZERS
    approximate: bool = False
    note: str = ""

    def describe(self) -> str:
        """One line for a picker or a report: the family, its tokenizer, and why it is approximate."""
        line = f"{self.title}: {self.tokenizer}"
        return f"{line} (approximate: {self.note})" if self.approximate else line


STAND_IN = "o200k_base"

MODEL_LIST = (
    ModelFamily("gpt-4o", "GPT-4o / GPT-4.1 / GPT-5 (OpenAI)", "o200k_base"),
    ModelFamily("gpt-4", "GPT-4 / GPT-3.5 (OpenAI)", "cl100k_base"),
    ModelFamily("gpt-oss", "gpt-oss (OpenAI open weights, harmony format)", "o200k_harmony"),
    ModelFamily("llama-3", "Llama 3.x (Meta)", "llama3"),
    ModelFamily("qwen", "Qwen 2.5 / Qwen 3 (Alibaba)", "qwen"),
    ModelFamily("qwen3.6", "Qwen 3.5 / Qwen 3.6 (Alibaba)", "qwen3.6"),
    ModelFamily("mistral", "Mistral / Mixtral, current Tekken models (Mistral AI)", "tekken"),
    ModelFamily("deepseek", "DeepSeek V3 / V4", "deepseek"),
    ModelFamily("claude", "Claude (Anthropic)", STAND_IN, approximate=True,
                note=f"Anthropic publishes no tokenizer for current Claude models; {STAND_IN} stands in. Anthropic "
                     "states that Claude Opus 4.7 and later use a new tokenizer giving 1.0-1.35x the tokens of Opus 4.6 "
                     "on the same text, so the stand-in under-counts them by up to about a quarter (1 - 1/1.35) "
                     "beyond its error on earlier Claude models"),
    ModelFamily("gemini", "Gemini (Google)", STAND_IN, approximate=True,
                note=f"Google publishes no tokenizer for Gemini; {STAND_IN} stands in (Gemini is documented to use "
                     "Gemma 3's 262,144-token SentencePiece vocabulary, which no package ships on its own)"),
)


def approximate_count(count: int, approximate: bool) -> str:
    """A token count as shown to a reader: `≈12,345` when it only estimates the model's count."""
    return f"≈{count:,}" if approximate else f"{count:,}"


def counting_note(model: ModelFamily, tokenizer: str) -> str:
    """Why the counts only estimate what `model` reads when `tokenizer` counts, or "" when they are exact."""
    if tokenizer != model.tokenizer:
        return f"{model.title} reads with {model.tokenizer}; these counts use {tokenizer}"
    return model.note if model.approximate else ""


def family_counted_by(tokenizer: str) -> str | None:
    """The reader a tokenizer counts exactly for: `gguf:PATH` itself, else the one model family whose own tokenizer
    it is, not as a stand-in (o200k_base -> gpt-4o, not Claude); None when no family, or several, use it."""
    if tokenizer.startswith("gguf:"):
        return tokenizer
    found = [model.name for model in MODEL_LIST if model.tokenizer == tokenizer and not model.approximate]
    return found[0] if len(found) == 1 else None
