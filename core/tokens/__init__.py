"""Tokens: the Tokenizer protocol, its engines, exact counts of every record prefix, and the registries
`TOKENIZERS` (every family users deploy, loaded offline from packages) and `MODELS` (model families and the
tokenizer that counts for each; a stand-in is marked approximate)."""

from __future__ import annotations

from core.registry import Registry
from core.tokens.models import MODEL_LIST, ModelFamily
from core.tokens.protocol import Tokenizer
from core.tokens.tokenizers import TOKENIZER_LIST

# Each tokenizer loads its vocabulary file from an installed package on first use, so registering one costs nothing.
TOKENIZERS: Registry[Tokenizer] = Registry("tokenizer", [(tokenizer.name, tokenizer) for tokenizer in TOKENIZER_LIST])

MODELS: Registry[ModelFamily] = Registry("model", [(model.name, model) for model in MODEL_LIST])
for _model in MODEL_LIST:
    TOKENIZERS.get(_model.tokenizer)  # every family names a registered tokenizer

__all__ = ["MODELS", "TOKENIZERS", "ModelFamily", "Tokenizer"]
