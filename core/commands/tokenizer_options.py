"""`--encoding`, `--encodings A,B,...` and `--model NAME`: the tokenizer options every counting command shares.

Use `add_tokenizer_options(parser)` when building a command and `chosen_tokenizers(arguments)` in
its `run`; a model without a public tokenizer resolves to its stand-in, marked approximate.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from core.tokens import MODELS, TOKENIZERS
from core.tokens.models import ModelFamily

DEFAULT_TOKENIZER = "o200k_base"


@dataclass(frozen=True)
class TokenizerChoice:
    """The tokenizers a command counts with, and the model family they stand for, if one was named."""

    names: tuple[str, ...]
    model: ModelFamily | None = None

    @property
    def approximate(self) -> bool:
        return self.model is not None and self.model.approximate

    def describe(self) -> str:
        """What the command prints about its tokenizers."""
        if self.model is not None:
            return f"model {self.model.describe()}"
        return f"tokenizer{'s' if len(self.names) > 1 else ''} {', '.join(self.names)}"

    def parameters(self) -> dict:
        """For a report's parameters: the tokenizers, the model and whether counts are approximate."""
        return {"tokenizers": list(self.names), "model": self.model.name if self.model else None,
                "approximate": self.approximate}


def tokenizer_names(text: str) -> list[str]:
    """An argparse type: comma-separated registered tokenizer names, or `all`."""
    if text.strip() == "all":
        return TOKENIZERS.names()
    chosen = list(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in chosen if name not in TOKENIZERS]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"unknown tokenizer {', '.join(map(repr, unknown)) or '(none given)'}; "
                                         f"use one or more of: {', '.join(TOKENIZERS.names())}, or all")
    return chosen


def add_tokenizer_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("tokenizers")
    chosen = group.add_mutually_exclusive_group()
    chosen.add_argument("--encoding", choices=TOKENIZERS.names(), help=f"one tokenizer (default {DEFAULT_TOKENIZER})")
    chosen.add_argument("--encodings", type=tokenizer_names, metavar="A,B,...",
                        help="several tokenizers side by side (comma-separated, or all): "
                             f"{', '.join(TOKENIZERS.names())}")
    chosen.add_argument("--model", choices=MODELS.names(),
                        help="the model that will read the context; its tokenizer counts (claude and gemini have "
                             "no public tokenizer: a stand-in counts and the figures are marked approximate)")


def chosen_tokenizers(arguments: argparse.Namespace) -> TokenizerChoice:
    if getattr(arguments, "model", None):
        model = MODELS.get(arguments.model)
        return TokenizerChoice((model.tokenizer,), model)
    if getattr(arguments, "encodings", None):
        return TokenizerChoice(tuple(arguments.encodings))
    return TokenizerChoice((getattr(arguments, "encoding", None) or DEFAULT_TOKENIZER,))
