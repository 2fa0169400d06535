"""Tokenizers load from the bundled BPE files with no network and count special-token text as text."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import UnknownNameError
from core.registry import TOKENIZERS
from core.tokens import Tokenizer


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_tokenizers_load_and_count_with_the_network_blocked(name, no_network, tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # an empty cache: nothing downloaded before
    tokenizer = Tokenizer(name)
    assert tokenizer.count("svc-api depends_on svc-auth") > 0
    assert tokenizer.decode(tokenizer.encode("héllo 🕸")) == "héllo 🕸"


def test_a_fresh_process_without_network_loads_o200k(tmp_path):
    """The whole import path, in a new interpreter whose sockets all fail."""
    script = (
        "import socket\n"
        "def refuse(*a, **k): raise OSError('blocked')\n"
        "socket.socket.connect = refuse; socket.create_connection = refuse; socket.getaddrinfo = refuse\n"
        "from core.registry import TOKENIZERS\n"
        "print(TOKENIZERS.get('o200k_base').count('hello world'))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            env={"TIKTOKEN_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}, cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"


def test_special_token_text_counts_as_plain_text():
    tokenizer = TOKENIZERS.get("o200k_base")
    assert tokenizer.count("<|endoftext|>") > 1  # as a special token it would be exactly 1


def test_known_counts_match_tiktoken():
    assert TOKENIZERS.get("o200k_base").count("hello world") == 2
    assert TOKENIZERS.get("cl100k_base").encode("hello world") == [15339, 1917]


def test_an_unknown_tokenizer_lists_the_known_ones():
    with pytest.raises(UnknownNameError, match="o200k_base, cl100k_base"):
        TOKENIZERS.get("gpt-2")
