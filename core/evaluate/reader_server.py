"""A small OpenAI-compatible HTTP server for the reference readers, on loopback by default.

`POST /v1/chat/completions` with model `oracle` or `first-k` answers the last user message with
that reader; `GET /v1/models` lists them. Usage is reported with the o200k_base count of the
message text and of the reply. The server counts the completion requests it receives, so a test can
check that a resumed sweep sends only what is missing. `intercept` lets a test replace a reply
(a 500, a 429, a slow answer, prose instead of JSON) without a second server implementation.
Request headers, and so any API key, are neither stored nor logged.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from core.errors import GraphContextError
from core.evaluate.readers import DEFAULT_K, READERS, first_k, read_request
from core.formats import FORMATS
from core.formats.base import Format
from core.queries import QUERIES, QueryTemplate
from core.tokens import TOKENIZERS
from core.tokens.protocol import Tokenizer

MAX_BODY_BYTES = 64 * 1024 * 1024
LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class Reply:
    """A reply to send instead of the reader's answer."""

    status: int
    body: str
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_seconds: float = 0.0


Intercept = Callable[[int, dict], "Reply | None"]  # (1-based request number, request body) -> Reply or None


def completion_body(content: str, model: str, prompt_tokens: int, completion_tokens: int, number: int) -> str:
    """A chat.completion response body as OpenAI-compatible servers write it."""
    return json.dumps({
        "id": f"chatcmpl-reader-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }, ensure_ascii=False)


def error_body(message: str, kind: str = "invalid_request_error") -> str:
    return json.dumps({"error": {"message": message, "type": kind}}, ensure_ascii=False)


def _message_text(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, list):  # content parts: keep the text parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def _registered_formats() -> dict[str, Format]:
    return {name: FORMATS.get(name) for name in FORMATS}


def _registered_tokenizer(name: str) -> Tokenizer:
    return TOKENIZERS.get(name)


def _registered_templates() -> list[QueryTemplate]:
    return [QUERIES.get(name) for name in QUERIES]


class ReaderServer:
    """Start with `start()` (or as a context manager); `url` is the base URL to give a client."""

    def __init__(self, host: str = LOOPBACK, port: int = 0, k: int = DEFAULT_K,
                 formats: Mapping[str, Format] | None = None, templates: Iterable[QueryTemplate] | None = None,
                 intercept: Intercept | None = None, tokenizer: str = "o200k_base") -> None:
        self.k = k
        self.formats = dict(formats) if formats is not None else _registered_formats()
        self.templates = list(templates) if templates is not None else _registered_templates()
        self.intercept = intercept
        self.tokenizer = _registered_tokenizer(tokenizer)
        self.tokenizer.count("")  # load the BPE file now, not inside the first request's latency
        self._count = 0
        self._lock = threading.Lock()
        self._http = ThreadingHTTPServer((host, port), _handler_for(self))
        self._http.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._http.server_address[1]

    @property
    def url(self) -> str:
        host = self._http.server_address[0]
        return f"http://{host if isinstance(host, str) else host.decode()}:{self.port}/v1"

    @property
    def requests_received(self) -> int:
        with self._lock:
            return self._count

    def _next_number(self) -> int:
        with self._lock:
            self._count += 1
            return self._count

    def start(self) -> ReaderServer:
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), name="reader-server",
                                        daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._http.serve_forever()

    def stop(self) -> None:
        if self._thread is not None:  # shutdown() waits for a serve_forever loop: only ask a running one
            self._http.shutdown()
            self._thread = None
        self._http.server_close()

    def __enter__(self) -> ReaderServer:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def answer(self, number: int, body: dict) -> Reply:
        """The reply to one chat-completions request body."""
        model = body.get("model")
        messages = body.get("messages")
        if model not in READERS:
            return Reply(404, error_body(f"unknown model {model!r}; this server has {sorted(READERS)}",
                                         "model_not_found"))
        if not isinstance(messages, list) or not messages or not all(isinstance(m, dict) for m in messages):
            return Reply(400, error_body("messages must be a non-empty list of objects"))
        users = [message for message in messages if message.get("role") == "user"]
        prompt = _message_text(users[-1]) if users else ""
        try:
            request = read_request(prompt, self.formats, self.templates)
        except GraphContextError as error:
            return Reply(400, error_body(str(error)))
        content = first_k(request, self.k) if model == "first-k" else READERS[model](request)
        prompt_tokens = sum(self.tokenizer.count(_message_text(message)) for message in messages)
        return Reply(200, completion_body(content, model, prompt_tokens, self.tokenizer.count(content), number))


def _handler_for(server: ReaderServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args) -> None:  # the base class's name
            pass  # no access log: nothing of a request (headers included) is written anywhere

        def _send(self, reply: Reply) -> None:
            if reply.delay_seconds:
                time.sleep(reply.delay_seconds)
            data = reply.body.encode("utf-8")
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing to do

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                models = [{"id": name, "object": "model", "owned_by": "graph-context-lab"} for name in READERS]
                self._send(Reply(200, json.dumps({"object": "list", "data": models})))
            else:
                self._send(Reply(404, error_body(f"no route {self.path}")))

        def do_POST(self) -> None:
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(Reply(404, error_body(f"no route {self.path}")))
                return
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY_BYTES:
                self.close_connection = True
                self._send(Reply(413, error_body("request body too large")))
                return
            number = server._next_number()
            try:
                body = json.loads(self.rfile.read(length).decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                self._send(Reply(400, error_body("the request body is not JSON")))
                return
            if not isinstance(body, dict):
                self._send(Reply(400, error_body("the request body is not a JSON object")))
                return
            reply = server.intercept(number, body) if server.intercept else None
            self._send(reply or server.answer(number, body))

    return Handler
