"""Tokens: the Tokenizer protocol, its engines, exact counts of every record prefix, and the registries
`TOKENIZERS` (every family users deploy, loaded offline from packages, and `gguf:PATH`: a GGUF model file's own) and `MODELS` (model families and the
tokenizer that counts for each; a stand-in is marked approximate)."""

from __future__ import annotations

from core.errors import UnknownNameError
from core.registry import Registry
from core.tokens.models import MODEL_LIST, ModelFamily
from core.tokens.protocol import Tokenizer
from core.tokens.tokenizers import TOKENIZER_LIST
from core.tokens.tokenizers.gguf_file import gguf_path, gguf_tokenizer, is_gguf_name


class TokenizerRegistry(Registry[Tokenizer]):
    """The registered tokenizers, and `gguf:PATH`: the tokenizer a GGUF model file carries, read on first use."""

    def get(self, name: str) -> Tokenizer:
        if is_gguf_name(name):
            return gguf_tokenizer(gguf_path(name))
        try:
            return super().get(name)
        except UnknownNameError as error:
            raise UnknownNameError(error.what, error.where, f"{error.fix}, or gguf:PATH for a GGUF model file") \
                from None

    def __contains__(self, name: object) -> bool:
        return is_gguf_name(name) or super().__contains__(name)


# Each tokenizer loads its vocabulary file from an installed package on first use, so registering one costs nothing.
TOKENIZERS = TokenizerRegistry("tokenizer", [(tokenizer.name, tokenizer) for tokenizer in TOKENIZER_LIST])

MODELS: Registry[ModelFamily] = Registry("model", [(model.name, model) for model in MODEL_LIST])
for _model in MODEL_LIST:
    TOKENIZERS.get(_model.tokenizer)  # every family names a registered tokenizer

__all__ = ["MODELS", "TOKENIZERS", "ModelFamily", "Tokenizer"]
