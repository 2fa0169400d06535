"""The bundled model's server as a child process: started on demand, its URL read back, stopped with nothing left behind.

The dashboard, the benchmark and the tests use this rather than llama.cpp in their own process: a
native crash or an out-of-memory kill then takes down only the server, and the child is reached over
HTTP exactly like any endpoint a user brings. The child is `graph-context-lab serve-model` itself
with a hidden flag: it stops when its standard input closes, so it ends with its parent even when
the parent is killed and cannot run its own clean-up.
"""

from __future__ import annotations

import atexit
import contextlib
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from core.errors import ParameterError
from core.evaluate.model_server import (
    DEFAULT_CONTEXT,
    DEFAULT_THREADS,
    bundled_model_file,
    check_model_file,
    request_counter,
)
from core.evaluate.run import RequestCounter

READY = "model server on "  # as core.commands.serve_model prints it
START_TIMEOUT_SECONDS = 120.0  # loading takes ~1.5 s; a machine busy with other work can take much longer


@dataclass(frozen=True)
class ModelProcessSettings:
    model_file: Path | None = None  # None: the bundled model
    threads: int = DEFAULT_THREADS
    context: int = DEFAULT_CONTEXT
    port: int = 0


class ModelProcess:
    """`start()` returns once the server answers; `url` and `model_name` are what a client needs."""

    def __init__(self, settings: ModelProcessSettings = ModelProcessSettings()) -> None:
        self.settings = settings
        self.url = ""
        self.model_name = ""
        self.startup_seconds = 0.0
        self._process: subprocess.Popen | None = None
        self._errors: deque[str] = deque(maxlen=20)

    def command(self) -> list[str]:
        settings = self.settings
        command = [sys.executable, "-m", "core.cli", "serve-model", "--port", str(settings.port),
                   "--threads", str(settings.threads), "--context", str(settings.context), "--stop-on-stdin-close"]
        if settings.model_file is not None:
            command += ["--model-file", str(check_model_file(settings.model_file))]
        return command

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, timeout_seconds: float = START_TIMEOUT_SECONDS) -> ModelProcess:
        if self.running:
            return self
        started = time.perf_counter()
        self._process = subprocess.Popen(self.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
        atexit.register(self.stop)
        threading.Thread(target=self._keep_errors, daemon=True, name="model-server-stderr").start()
        line = self._ready_line(timeout_seconds)
        self.url = line[len(READY):].split(" ", 1)[0]
        self.model_name = line.split("(model ", 1)[1].split(",", 1)[0]
        self.startup_seconds = time.perf_counter() - started
        return self

    def _keep_errors(self) -> None:
        process = self._process
        if process is not None and process.stderr is not None:
            for line in process.stderr:
                self._errors.append(line.rstrip())

    def _ready_line(self, timeout_seconds: float) -> str:
        process = self._process
        assert process is not None and process.stdout is not None
        stdout = process.stdout
        found: list[str] = []
        reader = threading.Thread(target=lambda: found.append(stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout_seconds)
        line = found[0] if found else ""
        if line.startswith(READY):
            return line.strip()
        self.stop()
        reason = next((text for text in reversed(self._errors) if "error" in text), "") or (
            f"no answer within {timeout_seconds:g} s" if not found else "it exited")
        raise ParameterError(f"the model server did not start: {reason.removeprefix('graph-context-lab: error: ')}",
                             "serve-model", "run graph-context-lab serve-model in a terminal to see its output")

    def stop(self) -> None:
        """Close the child's stdin (it stops itself), then terminate and, failing that, kill it."""
        process, self._process = self._process, None
        if process is None:
            return
        atexit.unregister(self.stop)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()  # the child's stdin watch stops it cleanly
        for escalate in (lambda: None, process.terminate, process.kill):
            escalate()
            try:
                process.wait(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue
        if process.stdout is not None:
            process.stdout.close()

    @property
    def model_file(self) -> Path:
        return Path(self.settings.model_file) if self.settings.model_file else bundled_model_file()

    def request_counter(self) -> RequestCounter:
        """Counts a request as this server's model does (its GGUF file's chat template and tokenizer)."""
        return request_counter(self.model_file)

    def __enter__(self) -> ModelProcess:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

