"""The chat-completions client: one request to any OpenAI-compatible endpoint, recorded as an Exchange.

Built on the official `openai` package, which brings timeouts, retries with exponential backoff and
jitter on 408/409/429/5xx and connection errors (honouring a Retry-After up to the run's timeout; a longer
one fails the request at once, saying how long the server asked to wait), and the OpenAI-compatible
surface that vLLM, Ollama, llama.cpp server and LM Studio speak. The API key is read from an
environment variable at call time and handed to the client only: it is never part of an Exchange,
the stored raw request, a request key or a log line.
"""

from __future__ import annotations

import email.utils
import json
import math
import os
import threading
import time
from dataclasses import dataclass, field

import openai

from core.errors import ParameterError
from core.prompt.answers import ANSWER_FORMATS

PLACEHOLDER_KEY = "no-key"  # sent when the variable is unset: local servers need no key, but the client wants one
# A reply is read in chunks and refused past this size: a 200 MB reply was once read whole, stored twice
# and made every later summary of its run store run out of memory. A completion of 512 tokens is a few KB.
MAX_REPLY_BYTES = 8_000_000
LONGEST_RETRY_AFTER = 120  # seconds: the openai client's MAX_RETRY_AFTER_DELAY
MAX_TEMPERATURE = 2.0  # the OpenAI API's range; NaN or infinity cannot be sent as JSON at all
KEPT_OF_REFUSED_REPLY = 2_000  # characters of a refused reply kept as its raw response, to show what came


@dataclass(frozen=True)
class Endpoint:
    """Where and how to ask: everything here is recorded with the run, except the key's value."""

    base_url: str
    model: str
    api_key_variable: str = "OPENAI_API_KEY"
    temperature: float = 0.0
    max_tokens: int = 512
    seed: int | None = None  # sent only when given; the same seed for every trial
    timeout_seconds: float = 60.0
    max_retries: int = 3
    token_limit_field: str = "max_tokens"  # some OpenAI models want "max_completion_tokens"
    # "json_schema": each request carries its query's answer schema as `response_format`, so a server that
    # constrains output (llama.cpp, vLLM, OpenAI, Ollama) can only write a well-formed answer; "free": no
    # response_format, the model writes what it will. Recorded with the run: the two can score differently.
    answer_format: str = "json_schema"

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ParameterError(f"base URL {self.base_url!r} is not an http(s) address", "--base-url",
                                 "give the endpoint's address, e.g. http://127.0.0.1:11434/v1")
        if not self.model:
            raise ParameterError("no model name given", "--model", "name the model the endpoint serves")
        # `not (x > 0)` also refuses NaN, which passes `x <= 0`; an infinite timeout is no bound at all.
        if self.max_tokens < 1 or not (0 < self.timeout_seconds < math.inf) or self.max_retries < 0:
            raise ParameterError("max tokens, timeout and retries must be positive and finite", "endpoint settings",
                                 "use max_tokens >= 1, a timeout in seconds > 0, retries >= 0")
        if not (0 <= self.temperature <= MAX_TEMPERATURE):
            raise ParameterError(f"the temperature is {self.temperature}", "--temperature",
                                 f"use a number from 0 to {MAX_TEMPERATURE:g}")
        if self.token_limit_field not in ("max_tokens", "max_completion_tokens"):
            raise ParameterError(f"unknown token limit field {self.token_limit_field!r}", "endpoint settings",
                                 "use max_tokens or max_completion_tokens")
        if self.answer_format not in ANSWER_FORMATS:
            raise ParameterError(f"unknown answer format {self.answer_format!r}", "--answer-format",
                                 f"use one of: {', '.join(ANSWER_FORMATS)}")

    def request_body(self, messages: list[dict], answer_schema: dict | None = None) -> dict:
        """The chat-completions JSON body: exactly what is sent and stored (no headers, no key).

        `answer_schema` (a JSON Schema) becomes the constrained `response_format` when this endpoint's
        answer format is json_schema.
        """
        body = {"model": self.model, "messages": messages, "temperature": self.temperature,
                self.token_limit_field: self.max_tokens}
        if self.seed is not None:
            body["seed"] = self.seed
        if self.answer_format == "json_schema" and answer_schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "answer", "strict": True, "schema": answer_schema}}
        return body

    def settings(self) -> dict:
        """What a run records about the endpoint: the key variable's name, never its value."""
        return {"base_url": self.base_url, "model": self.model, "api_key_variable": self.api_key_variable,
                "temperature": self.temperature, "max_tokens": self.max_tokens, "seed": self.seed,
                "timeout_seconds": self.timeout_seconds, "max_retries": self.max_retries,
                "token_limit_field": self.token_limit_field, "answer_format": self.answer_format}


@dataclass(frozen=True)
class Exchange:
    """One request and what came back (or why nothing usable did)."""

    raw_request: str  # JSON: method, url, body
    raw_response: str  # the response body as received, or the error's text
    failure_reason: str  # "" when answered
    content: str | None
    response_model: str | None
    prompt_tokens_reported: int | None  # as the provider returned them; None when absent
    completion_tokens_reported: int | None
    latency_ms: float  # wall time of the call, retries and backoff included
    attempt_statuses: tuple[str, ...] = field(default=())  # "429", "200", "no response" per attempt
    # Prompt tokens the server took from its prompt cache (usage.prompt_tokens_details.cached_tokens), when reported
    cached_tokens_reported: int | None = None

    @property
    def answered(self) -> bool:
        return not self.failure_reason


def _reported(usage: object, name: str) -> int | None:
    value = usage.get(name) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def cached_tokens(body_text: str) -> int | None:
    """usage.prompt_tokens_details.cached_tokens of a response body, when the server reports it."""
    try:
        body = json.loads(body_text)
    except json.JSONDecodeError:
        return None
    usage = body.get("usage") if isinstance(body, dict) else None
    details = usage.get("prompt_tokens_details") if isinstance(usage, dict) else None
    return _reported(details, "cached_tokens")


def read_completion(body_text: str) -> tuple[str | None, str | None, int | None, int | None]:
    """(content, model, prompt tokens, completion tokens) from a chat-completions response body.

    Raises ValueError when the body is not a chat completion at all.
    """
    try:
        body = json.loads(body_text)
    except json.JSONDecodeError as error:
        raise ValueError(f"the response is not JSON ({error.msg})") from None
    except RecursionError:
        raise ValueError("the response nests too deeply to be a chat completion") from None
    except ValueError as error:  # an integer of more than 4,300 digits
        raise ValueError(f"the response is not a chat completion ({error})") from None
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("the response has no choices")
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    usage = body.get("usage")
    model = body.get("model") if isinstance(body.get("model"), str) else None
    for text in (content, model):
        if isinstance(text, str) and _has_surrogate(text):
            raise ValueError("the content holds a lone surrogate (a \\ud800-\\udfff escape), which is not text")
    return (content if isinstance(content, str) else None, model, _reported(usage, "prompt_tokens"),
            _reported(usage, "completion_tokens"))


RETRIED_STATUSES = (408, 409, 429)  # and every 5xx: the statuses the openai client retries


def retry_after_seconds(headers) -> float | None:
    """The wait a response asks for before a retry (`retry-after-ms`, or `retry-after` in seconds or as an HTTP
    date, as the openai client reads them), or None when it asks for none or writes it unreadably."""
    try:
        milliseconds = headers.get("retry-after-ms")
        if milliseconds is not None:
            seconds = float(milliseconds) / 1000
        else:
            text = headers.get("retry-after")
            if text is None:
                return None
            try:
                seconds = float(text)
            except ValueError:
                seconds = email.utils.parsedate_to_datetime(text).timestamp() - time.time()
    except (ValueError, TypeError, OverflowError):
        return None
    return seconds if math.isfinite(seconds) and seconds > 0 else None


def longest_wait(endpoint: Endpoint) -> float:
    """The longest Retry-After a run waits for: its own timeout (a wait longer than the attempt it precedes
    would look like a hang), and never beyond the openai client's two minutes."""
    return min(endpoint.timeout_seconds, LONGEST_RETRY_AFTER)


def _not_waited(headers, endpoint: Endpoint) -> str:
    """Why a rate-limited request was not retried, when its Retry-After was longer than this run waits."""
    seconds = retry_after_seconds(headers)
    if seconds is None or seconds <= longest_wait(endpoint):
        return ""
    if endpoint.timeout_seconds < LONGEST_RETRY_AFTER:
        bound, fix = f"this run's timeout of {endpoint.timeout_seconds:g} s", "or raise --timeout"
    else:
        bound, fix = f"the {LONGEST_RETRY_AFTER} s this client waits", "when the server allows"
    return (f" (the server asked to wait {seconds:,.0f} s before retrying, longer than {bound}, so it was not "
            f"retried: run the same command later {fix}; answered requests are kept)")


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class _ReplyTooLarge(Exception):
    pass


class _ReplyTooSlow(Exception):
    pass


class _AttemptLog(threading.local):
    """Status of each HTTP attempt of the current thread's call (the openai client retries internally)."""

    def __init__(self) -> None:
        self.statuses: list[str] = []
        self.started = 0.0  # when the current attempt's request was sent (perf_counter)


class ChatClient:
    """Thread-safe: one client serves every worker of a sweep (each worker runs one call at a time)."""

    def __init__(self, endpoint: Endpoint, api_key: str | None = None) -> None:
        self.endpoint = endpoint
        self._attempts = _AttemptLog()
        key = api_key if api_key is not None else os.environ.get(endpoint.api_key_variable, "")
        http_client = openai.DefaultHttpxClient(event_hooks={"request": [self._on_request],
                                                             "response": [self._on_response]})
        self._client = openai.OpenAI(base_url=endpoint.base_url, api_key=key or PLACEHOLDER_KEY,
                                     timeout=endpoint.timeout_seconds, max_retries=endpoint.max_retries,
                                     http_client=http_client)
        self.has_key = bool(key)

    def _on_request(self, request) -> None:
        self._attempts.statuses.append("no response")
        self._attempts.started = time.perf_counter()

    def _on_response(self, response) -> None:
        if self._attempts.statuses:
            self._attempts.statuses[-1] = str(response.status_code)
        status = response.status_code
        if status in RETRIED_STATUSES or status >= 500:
            seconds = retry_after_seconds(response.headers)
            if seconds is not None and seconds > longest_wait(self.endpoint):
                # The openai client would sleep for it (up to two minutes per retry): fail at once instead, and
                # the failure says how long the server asked to wait.
                response.headers["x-should-retry"] = "false"

    def raw_request(self, body: dict) -> str:
        url = self.endpoint.base_url.rstrip("/") + "/chat/completions"
        return json.dumps({"method": "POST", "url": url, "body": body}, ensure_ascii=False)

    def complete(self, messages: list[dict], answer_schema: dict | None = None) -> Exchange:
        body = self.endpoint.request_body(messages, answer_schema)
        raw_request = self.raw_request(body)
        self._attempts.statuses = []
        started = time.perf_counter()
        try:
            with self._client.chat.completions.with_streaming_response.create(**body) as response:
                text = self._read_reply(response.http_response)
        except _ReplyTooSlow:
            return self._failed(raw_request, started, "",
                                f"timeout after {self.endpoint.timeout_seconds:g} s (the reply was still arriving)")
        except _ReplyTooLarge as error:
            return self._failed(raw_request, started, str(error.args[0])[:KEPT_OF_REFUSED_REPLY],
                                f"the reply is larger than {MAX_REPLY_BYTES:,} bytes, the limit for a model's reply")
        except openai.APITimeoutError:
            return self._failed(raw_request, started, "", f"timeout after {self.endpoint.timeout_seconds:g} s")
        except openai.APIConnectionError as error:
            cause = error.__cause__ or error
            return self._failed(raw_request, started, "", f"connection failed: {cause}")
        except openai.APIStatusError as error:
            body_text = error.response.text[:KEPT_OF_REFUSED_REPLY * 50]
            return self._failed(raw_request, started, body_text,
                                f"HTTP {error.status_code}: {body_text[:200]}"
                                f"{_not_waited(error.response.headers, self.endpoint)}")
        except openai.OpenAIError as error:  # anything else is a bug, and must show as one
            return self._failed(raw_request, started, "", f"client error: {error}")
        latency = (time.perf_counter() - started) * 1000
        try:
            content, model, prompt_tokens, completion_tokens = read_completion(text)
        except ValueError as error:
            return Exchange(raw_request, text, f"malformed response: {error}", None, None, None, None, latency,
                            tuple(self._attempts.statuses))
        return Exchange(raw_request, text, "", content, model, prompt_tokens, completion_tokens, latency,
                        tuple(self._attempts.statuses), cached_tokens(text))

    def _read_reply(self, http_response) -> str:
        """The body, read in chunks: refused once past MAX_REPLY_BYTES, and once the attempt has taken longer
        than the timeout in all (the client's own timeout is per read, so a reply that drips a byte at a time
        would otherwise last as long as it drips)."""
        deadline = self._attempts.started + self.endpoint.timeout_seconds
        chunks, size = [], 0
        for chunk in http_response.iter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                raise _ReplyTooLarge(b"".join(chunks)[:KEPT_OF_REFUSED_REPLY].decode("utf-8", errors="replace"))
            if time.perf_counter() > deadline:
                raise _ReplyTooSlow
        return b"".join(chunks).decode(http_response.encoding or "utf-8", errors="replace")

    def _failed(self, raw_request: str, started: float, raw_response: str, reason: str) -> Exchange:
        attempts = tuple(self._attempts.statuses)
        if len(attempts) > 1:
            reason += f" ({len(attempts)} attempts: {', '.join(attempts)})"
        return Exchange(raw_request, raw_response, reason, None, None, None, None,
                        (time.perf_counter() - started) * 1000, attempts)

    def close(self) -> None:
        self._client.close()
