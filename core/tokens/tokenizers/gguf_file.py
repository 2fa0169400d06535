"""The tokenizer a GGUF model file carries (`gguf:PATH`): vocabulary, merges and pre-tokenizer read from its metadata.

Local models (llama.cpp, Ollama, LM Studio) are GGUF files holding their own tokenizer. The `gguf`
package (llama.cpp's own reader) reads the metadata; the byte-level BPE then runs in Hugging Face
`tokenizers`, given the vocabulary, the merges in the file's order and the pre-tokenizer that
llama.cpp (src/llama-vocab.cpp) applies for the file's `tokenizer.ggml.pre` type. llama.cpp splits
text with the regular expressions listed there, one after the other, each inside the pieces of the
one before: `tokenizers`' `Sequence` of `Split(..., "Isolated")` does the same. Only pre-tokenizer
types whose expressions are transcribed below are accepted; any other is refused by name rather
than approximated. The tests compare ids with llama.cpp's own `/tokenize` on the same file.

`gguf_tokenizer(path)` is the entry point; `gguf_metadata(path)` gives what the chat wrapper and the
budgets need (chat template, special tokens, context length).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from functools import lru_cache, partial
from importlib.metadata import version
from pathlib import Path

from core.errors import GraphContextError
from core.io.whole_file import write_whole
from core.tokens.pretoken_boundaries import (
    GGUF_GPT2_PRE_TOKENIZER,
    GGUF_LLAMA3_PRE_TOKENIZER,
    GGUF_QWEN2_PRE_TOKENIZER,
    GGUF_SMOLLM_PRE_TOKENIZER,
)
from core.tokens.tokenizers.huggingface_engine import HuggingFaceTokenizer, byte_level_alphabet

GGUF_PREFIX = "gguf:"


@dataclass(frozen=True)
class PreTokenizer:
    """One llama.cpp pre-tokenizer: the `tokenizer.ggml.pre` names that select it, as `tokenizers` JSON."""

    names: tuple[str, ...]
    definition: str  # canonical JSON, as core.tokens.pretoken_boundaries analyses it
    ignore_merges: bool = False  # llama.cpp takes a whole piece that is in the vocabulary as one token (Llama 3)


# Transcribed from llama.cpp's src/llama-vocab.cpp (the `regex_exprs` of each LLAMA_VOCAB_PRE_TYPE and the
# `tokenizer.ggml.pre` strings that select it).
PRE_TOKENIZERS = (
    PreTokenizer(("gpt2", "mpt", "olmo", "jais", "trillion", "granite-docling"), GGUF_GPT2_PRE_TOKENIZER),
    PreTokenizer(("smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva"),
                 GGUF_SMOLLM_PRE_TOKENIZER),
    PreTokenizer(("qwen2", "stablelm2", "hunyuan"), GGUF_QWEN2_PRE_TOKENIZER),
    PreTokenizer(("llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2"),
                 GGUF_LLAMA3_PRE_TOKENIZER, ignore_merges=True),
)
SUPPORTED_PRE_TOKENIZERS = tuple(name for pre in PRE_TOKENIZERS for name in pre.names)

# llama_token_type in llama.cpp: 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte.
USER_DEFINED = 4


@dataclass(frozen=True, eq=False)
class GgufMetadata:
    """What a GGUF file says about its tokenizer and its use (the big lists are kept once, compared by identity)."""

    path: str
    model: str  # tokenizer.ggml.model: "gpt2" is byte-level BPE, "llama" SentencePiece
    pre: str  # tokenizer.ggml.pre
    tokens: tuple[str, ...]
    token_types: tuple[int, ...]
    merges: tuple[str, ...]
    bos_token_id: int | None
    eos_token_id: int | None
    add_bos_token: bool
    add_eos_token: bool
    chat_template: str
    context_length: int | None
    name: str
    licence: str

    def token_text(self, token_id: int | None) -> str:
        return self.tokens[token_id] if token_id is not None and 0 <= token_id < len(self.tokens) else ""


def is_gguf_name(name: object) -> bool:
    return isinstance(name, str) and name.startswith(GGUF_PREFIX)


def gguf_path(name: str) -> str:
    """The file path in an encoding name `gguf:PATH`."""
    return name[len(GGUF_PREFIX):]


def _file_stamp(path: str) -> tuple[str, int, int]:
    """(resolved path, size, modification time): a changed file is read again."""
    resolved = Path(path).expanduser()
    try:
        status = resolved.stat()
    except OSError as error:
        raise GraphContextError(f"cannot read GGUF file {path!r}: {error.strerror or error}", f"gguf:{path}",
                                "give the path of a .gguf model file (as llama.cpp, Ollama or LM Studio store them)"
                                ) from None
    if not resolved.is_file():
        raise GraphContextError(f"{path!r} is not a file", f"gguf:{path}", "give the path of a .gguf model file")
    if resolved.suffix.lower() != ".gguf":  # only model files are opened, never any other file a path names
        raise GraphContextError(f"{path!r} does not end in .gguf", f"gguf:{path}", "give the path of a .gguf model file")
    return str(resolved.resolve()), status.st_size, status.st_mtime_ns


MAX_GGUF_UPLOAD_BYTES = 1_000_000_000  # an upload is held in memory; larger models are given by path


def stored_gguf_upload(data: bytes) -> str:
    """An uploaded GGUF file written once to the temporary folder (named by its sha256); its path."""
    if len(data) > MAX_GGUF_UPLOAD_BYTES:
        raise GraphContextError(f"the uploaded file has {len(data):,} bytes, more than {MAX_GGUF_UPLOAD_BYTES:,}",
                                "GGUF upload", "give the file's path instead")
    if not data.startswith(b"GGUF"):
        raise GraphContextError("the uploaded file is not a GGUF file (it does not start with 'GGUF')", "GGUF upload",
                                "upload a .gguf model file")
    folder = Path(tempfile.gettempdir()) / "graph-context-lab-gguf"
    folder.mkdir(exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()[:32]}.gguf"
    if not path.is_file():
        write_whole(path, data)  # whole or absent, even with two sessions uploading the same file
    return str(path)


_LOCK = threading.Lock()  # one read of a file at a time: the reader maps the whole file


def gguf_metadata(path: str) -> GgufMetadata:
    """The tokenizer metadata of the GGUF file at `path`, read once per file version."""
    return _metadata(*_file_stamp(path))


def _field_value(fields: dict, key: str, default=None):
    field = fields.get(key)
    return default if field is None else field.contents()


@lru_cache(maxsize=4)
def _metadata(resolved: str, size: int, modified: int) -> GgufMetadata:
    import gguf  # imported here: only `gguf:` encodings need it, and it maps the whole file

    with _LOCK:
        try:
            fields = gguf.GGUFReader(resolved, "r").fields
        except (ValueError, OSError, IndexError, KeyError) as error:  # not GGUF, truncated, or an unknown version
            raise GraphContextError(f"{Path(resolved).name} is not a readable GGUF file: {error}", resolved,
                                    "give a .gguf model file; llama.cpp's convert_hf_to_gguf.py makes one") from None
        value = partial(_field_value, fields)
        architecture = value("general.architecture", "")
        metadata = GgufMetadata(
            path=resolved, model=value("tokenizer.ggml.model", ""), pre=value("tokenizer.ggml.pre", "default"),
            tokens=tuple(value("tokenizer.ggml.tokens", [])), token_types=tuple(value("tokenizer.ggml.token_type", [])),
            merges=tuple(value("tokenizer.ggml.merges", [])), bos_token_id=value("tokenizer.ggml.bos_token_id"),
            eos_token_id=value("tokenizer.ggml.eos_token_id"),
            add_bos_token=bool(value("tokenizer.ggml.add_bos_token", False)),
            add_eos_token=bool(value("tokenizer.ggml.add_eos_token", False)),
            chat_template=value("tokenizer.chat_template", "") or "",
            context_length=value(f"{architecture}.context_length"), name=value("general.name", Path(resolved).stem),
            licence=value("general.license", "") or "not stated in the file")
        del fields, value  # the reader maps the whole file: drop it once the metadata is copied out
    if not metadata.tokens:
        raise GraphContextError(f"{Path(resolved).name} holds no tokenizer (no tokenizer.ggml.tokens)", resolved,
                                "use a GGUF model file converted with its tokenizer")
    return metadata


def pre_tokenizer(metadata: GgufMetadata) -> PreTokenizer:
    """The pre-tokenizer llama.cpp uses for this file, or an error naming the type when it is not supported."""
    if metadata.model != "gpt2":
        raise GraphContextError(
            f"{Path(metadata.path).name} uses tokenizer model {metadata.model!r}; only byte-level BPE ('gpt2') "
            "GGUF tokenizers are counted exactly here", metadata.path,
            "count with a registered tokenizer for this model family instead (--encodings all lists them)")
    for pre in PRE_TOKENIZERS:
        if metadata.pre in pre.names:
            return pre
    raise GraphContextError(
        f"{Path(metadata.path).name} uses pre-tokenizer type {metadata.pre!r}, which is not supported "
        "(an approximation would be wrong on every count)", metadata.path,
        f"use a model whose tokenizer.ggml.pre is one of: {', '.join(SUPPORTED_PRE_TOKENIZERS)}")


def tokenizer_definition(metadata: GgufMetadata) -> dict:
    """A `tokenizers` JSON definition equal to what llama.cpp runs for this file's ordinary text."""
    pre = pre_tokenizer(metadata)
    user_defined = [text for text, kind in zip(metadata.tokens, metadata.token_types) if kind == USER_DEFINED]
    if user_defined:
        # llama.cpp cuts user-defined tokens out of any text, even with special-token parsing off.
        raise GraphContextError(
            f"{Path(metadata.path).name} has {len(user_defined)} user-defined tokens (e.g. {user_defined[0]!r}), "
            "which llama.cpp cuts out of ordinary text; that is not counted here yet", metadata.path,
            "count with a registered tokenizer for this model family instead")
    vocabulary: dict[str, int] = {}
    for token_id, text in enumerate(metadata.tokens):
        vocabulary.setdefault(text, token_id)  # llama.cpp's text-to-token map also keeps the first
    # A byte without a token still stands between its neighbours while llama.cpp merges, and is dropped after:
    # it gets an id past the vocabulary (HuggingFaceTokenizer.dropped_from), where BPE would drop it before
    # merging and join its neighbours ('/\x16<': llama.cpp 31 44, not '/<' 31194).
    missing = [character for character in byte_level_alphabet() if character not in vocabulary]
    vocabulary.update({character: len(metadata.tokens) + number for number, character in enumerate(missing)})
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
        "pre_tokenizer": json.loads(pre.definition), "post_processor": None, "decoder": None,
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
                  "ignore_merges": pre.ignore_merges, "vocab": vocabulary,
                  "merges": [merge.split(" ", 1) for merge in metadata.merges]},
    }


def gguf_tokenizer(path: str) -> HuggingFaceTokenizer:
    """The exact tokenizer of the GGUF model file at `path` (named `gguf:PATH`), built once per file version."""
    return _tokenizer(*_file_stamp(path), path)


@lru_cache(maxsize=4)
def _tokenizer(resolved: str, size: int, modified: int, given: str) -> HuggingFaceTokenizer:
    metadata = _metadata(resolved, size, modified)
    definition = json.dumps(tokenizer_definition(metadata), ensure_ascii=False).encode("utf-8")
    return HuggingFaceTokenizer(
        f"{GGUF_PREFIX}{given}", f"{metadata.name} (GGUF byte-level BPE, pre-tokenizer {metadata.pre!r}, "
        f"{len(metadata.tokens):,} tokens)",
        f"{os.path.basename(resolved)} ({size:,} bytes, modified {modified}) read with gguf {version('gguf')}",
        metadata.licence, lambda: definition, dropped_from=len(metadata.tokens))
