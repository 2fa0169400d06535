"""Whether a cut's whole request fits: the reader a sweep counts requests for, its chat template and its window.

A declared budget counts the context; what is sent is the model's chat template around the answer frame
around the context (`core.prompt.whole_request`, Token anatomy's "The whole request"). A sweep's rows carry
that request's exact tokens (`request_tokens`) and whether it fits the reader's context window
(`within_window`). Each stays empty, and the sweep says why, where it cannot be exact:

- no reader: the sweep's tokenizer is the exact tokenizer of no single model family (name one: `--model`);
- the reader's own tokenizer is not the sweep's (its counts would not be the reader's);
- the reader publishes no chat template here (Claude, Gemini, DeepSeek): its wrapper is unknown;
- `within_window` alone: no dated source records the reader's window (qwen3.6; a GGUF file without one).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.analysis.context_windows import context_window
from core.errors import GraphContextError
from core.tokens import MODELS
from core.tokens.chat_wrapper import ChatTemplate, chat_template_for
from core.tokens.models import family_counted_by


@dataclass(frozen=True)
class RequestReader:
    """Who the rows' whole requests are counted for, with which template, against which window, and what it means."""

    reader: str | None
    template_name: str | None  # None: request_tokens is left empty
    window: int | None  # None: within_window is left empty
    note: str  # one sentence: what is counted, or why a column is empty

    def template(self) -> ChatTemplate | None:
        """The reader's chat template (rebuilt in each worker process: templates hold functions)."""
        return chat_template_for(self.reader) if self.template_name is not None and self.reader else None

    def describe(self) -> dict:
        return {"reader": self.reader, "chat_template": self.template_name, "context_window": self.window,
                "request_note": self.note}


def request_reader(reader: str | None, tokenizer_name: str) -> RequestReader:
    """The reader (a model family or `gguf:PATH`; None: the family `tokenizer_name` is the tokenizer of)."""
    chosen = reader or family_counted_by(tokenizer_name)
    if chosen is None:
        return RequestReader(None, None, None, f"request_tokens and within_window are empty: {tokenizer_name} is the "
                             "exact tokenizer of no single model family; name the reader (--model)")
    own = chosen if chosen.startswith("gguf:") else MODELS.get(chosen).tokenizer
    if own != tokenizer_name:
        return RequestReader(chosen, None, None, f"request_tokens and within_window are empty: {chosen} reads with "
                             f"{own}, and this sweep counts with {tokenizer_name}")
    try:
        template = chat_template_for(chosen)
    except GraphContextError as error:  # a GGUF file without a chat template
        template, why = None, str(error)
    else:
        why = f"{chosen} publishes no chat template here, so its wrapper is unknown"
    if template is None:
        return RequestReader(chosen, None, None, f"request_tokens and within_window are empty: {why}")
    window = context_window(chosen)
    counted = f"request_tokens: the whole request to {chosen} (chat template {template.name} + answer frame + cut)"
    if window is None:
        return RequestReader(chosen, template.name, None,
                             f"{counted}; within_window is empty: no context window is recorded for {chosen}")
    return RequestReader(chosen, template.name, window.window,
                         f"{counted}; within_window: at most its context window of {window.window:,} tokens "
                         f"({window.source})")
