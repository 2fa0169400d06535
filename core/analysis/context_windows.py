"""What fits in a model's request: its context window, less the chat wrapper, the prompt frame and the answer's room.

    what fits = window - wrapper - frame - reserved output

A budget above it cannot be sent with room left for the answer (neo4j-graphrag-python #446: "you also
need space for answer generation"). The windows and output limits come from the same dated table
the prices come from (tokencost's bundled `model_prices.json`, LiteLLM's list), read for one named
entry per model family (`WINDOW_ENTRIES`, chosen below with the reason); a GGUF file states its own
(`<architecture>.context_length`). The reserved output is the lab's default room for an answer,
`DEFAULT_ANSWER_ROOM` tokens (a JSON answer with room for reasoning text), never more than the
model's own output limit. The wrapper comes from `core.tokens.chat_wrapper`, the frame from
`core.prompt.frame` (the question, the answer shape, no grammar and no data: those are the budget's).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.analysis.cost import _bundled, price_source
from core.prompt.answers import AnswerSchema
from core.prompt.frame import PromptParts, fill
from core.tokens.chat_wrapper import chat_template_for, request_tokens
from core.tokens.protocol import Tokenizer
from core.tokens.tokenizers.gguf_file import gguf_metadata, gguf_path, is_gguf_name

DEFAULT_ANSWER_ROOM = 4096

# model family -> the table entry whose window stands for it, and why that one.
WINDOW_ENTRIES = {
    "gpt-4o": ("gpt-4o", "GPT-4o itself (GPT-4.1 and GPT-5 have larger windows)"),
    "gpt-4": ("gpt-4-turbo", "GPT-4 Turbo, the GPT-4 still served (the first GPT-4 had 8,192)"),
    "gpt-oss": ("openrouter/openai/gpt-oss-120b", "gpt-oss-120b as served (its model card: 131,072)"),
    "llama-3": ("groq/llama-3.3-70b-versatile", "Llama 3.3 70B; Llama 3.1 and later share the 128K window"),
    "qwen": ("lambda_ai/qwen3-32b-fp8", "Qwen3 32B as served (131,072 with YaRN)"),
    "mistral": ("mistral/open-mistral-nemo", "Mistral NeMo, the Tekken v3 model"),
    "deepseek": ("deepseek/deepseek-chat", "DeepSeek's own API (V3)"),
    "claude": ("claude-opus-4-1", "Claude Opus 4.1, the newest Claude in the table"),
    "gemini": ("gemini-2.5-pro-preview-05-06", "Gemini 2.5 Pro"),
}


@dataclass(frozen=True)
class ContextWindow:
    """A model's context window and the room the lab keeps for its answer, with where the figures come from."""

    model: str
    window: int
    max_output: int | None
    reserved_output: int
    source: str


@dataclass(frozen=True)
class RequestRoom:
    """What fits as context in one request to a model, and the parts that take the rest of its window."""

    window: ContextWindow
    wrapper: int
    frame: int

    @property
    def fits(self) -> int:
        return max(self.window.window - self.wrapper - self.frame - self.window.reserved_output, 0)

    def describe(self) -> str:
        return (f"what fits in {self.window.model}: window {self.window.window:,} - wrapper {self.wrapper:,} - frame "
                f"{self.frame:,} - reserved output {self.window.reserved_output:,} = {self.fits:,} tokens "
                f"({self.window.source})")


def reserved_output(max_output: int | None) -> int:
    return min(DEFAULT_ANSWER_ROOM, max_output) if max_output else DEFAULT_ANSWER_ROOM


def context_window(model: str) -> ContextWindow | None:
    """The window of a model family (or `gguf:PATH`), or None when no dated source states one (e.g. qwen3.6)."""
    if is_gguf_name(model):
        metadata = gguf_metadata(gguf_path(model))
        if not metadata.context_length:
            return None
        window = int(metadata.context_length)
        return ContextWindow(model, window, None, min(DEFAULT_ANSWER_ROOM, window // 4),
                             f"the file's own context_length; a quarter of it, at most {DEFAULT_ANSWER_ROOM:,}, "
                             "kept for the answer")
    if model not in WINDOW_ENTRIES:
        return None
    entry_name, why = WINDOW_ENTRIES[model]
    entry = _bundled()[0].get(entry_name, {})
    window, max_output = entry.get("max_input_tokens"), entry.get("max_output_tokens")
    if not isinstance(window, int):
        return None
    max_output = max_output if isinstance(max_output, int) else None
    return ContextWindow(model, window, max_output, reserved_output(max_output),
                         f"{entry_name} in {price_source().describe()}: {why}")


def frame_text(schema: AnswerSchema, question: str) -> str:
    """The prompt frame around the context: the question and answer shape, with no format, grammar or data."""
    return fill(PromptParts(schema.example_json(), question, "", "", ""))


def request_room(model: str, tokenizer: Tokenizer, schema: AnswerSchema, question: str) -> RequestRoom | None:
    """What fits as context (grammar and data) when `question` is asked of `model`, or None without a window.

    A model without a published chat template (Claude, Gemini) is given no wrapper here: its real
    wrapper is unknown, so what fits is then an upper bound.
    """
    window = context_window(model)
    if window is None:
        return None
    frame = frame_text(schema, question)
    template = chat_template_for(model)
    wrapper = request_tokens(template, tokenizer, frame, "").wrapper if template is not None else 0
    return RequestRoom(window, wrapper, tokenizer.count(frame))
