"""The tokenizer engines (tiktoken, Hugging Face tokenizers) and the vocabularies they load, offline."""

from core.tokens.tokenizers.families import TOKENIZER_LIST

__all__ = ["TOKENIZER_LIST"]
