"""The client over real loopback HTTP against the bundled reader server: answers, usage, failures, retries."""

from __future__ import annotations

import json
import logging

import pytest

from core.errors import ParameterError
from core.evaluate.client import ChatClient, Endpoint, read_completion
from core.evaluate.reader_server import Reply, completion_body
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.prompt.answers import schema_for
from core.prompt.frame import build_prompt
from core.queries import reference_suite
from tests.core.evaluate.conftest import API_KEY, endpoint

GRAPH = service_graph(10, 8, 7)
QUERY = reference_suite()["identity_failure_affected_services"]
GOLD = QUERY.solve(GRAPH).answer


def messages(format_name: str = "typed_edges", data: str | None = None) -> list[dict]:
    format_ = FORMATS.get(format_name)
    data = format_.render(GRAPH, graph_units(GRAPH)).text if data is None else data
    prompt = build_prompt(schema_for(QUERY.name, GOLD), QUERY.question, format_.name, format_.grammar, data)
    return [{"role": "user", "content": prompt}]


def test_the_oracle_answers_over_http_with_usage_and_latency(server):
    exchange = ChatClient(endpoint(server.url)).complete(messages())
    assert exchange.answered and exchange.attempt_statuses == ("200",)
    assert json.loads(exchange.content) == {"affected_services": GOLD}
    assert exchange.prompt_tokens_reported > 100 and exchange.completion_tokens_reported > 5
    assert exchange.latency_ms > 0 and exchange.response_model == "oracle"
    sent = json.loads(exchange.raw_request)
    assert sent["url"] == server.url + "/chat/completions"
    assert sent["body"] == {"model": "oracle", "messages": messages(), "temperature": 0.0, "max_tokens": 512}
    assert json.loads(exchange.raw_response)["choices"][0]["message"]["content"] == exchange.content


def test_settings_reach_the_request_body(server):
    seen = []
    server.intercept = lambda number, body: seen.append(body)
    settings = endpoint(server.url, temperature=0.7, max_tokens=64, seed=11, token_limit_field="max_completion_tokens")
    ChatClient(settings).complete(messages())
    assert {key: seen[0][key] for key in ("temperature", "max_completion_tokens", "seed")} == {
        "temperature": 0.7, "max_completion_tokens": 64, "seed": 11}


def test_first_k_answers_without_traversing(server):
    exchange = ChatClient(endpoint(server.url, "first-k")).complete(messages())
    answer = json.loads(exchange.content)["affected_services"]
    assert len(answer) == 5 and "db-identity" not in answer and answer != GOLD


def test_a_refused_connection_is_a_failure_with_a_reason(closed_port):
    exchange = ChatClient(endpoint(f"http://127.0.0.1:{closed_port}/v1")).complete(messages())
    assert not exchange.answered and exchange.failure_reason.startswith("connection failed")
    assert exchange.content is None and exchange.attempt_statuses == ("no response",)


def test_a_timeout_is_a_failure_with_a_reason(server):
    server.intercept = lambda number, body: Reply(200, completion_body("{}", "oracle", 1, 1, number),
                                                  delay_seconds=1.5)
    exchange = ChatClient(endpoint(server.url, timeout_seconds=0.3)).complete(messages())
    assert exchange.failure_reason == "timeout after 0.3 s"
    assert 300 <= exchange.latency_ms < 1500


def test_a_server_error_is_retried_then_recorded_with_its_body(server):
    server.intercept = lambda number, body: Reply(500, '{"error": {"message": "model crashed"}}',
                                                  {"retry-after-ms": "10"})
    exchange = ChatClient(endpoint(server.url, max_retries=2)).complete(messages())
    assert exchange.failure_reason.startswith("HTTP 500: ") and "model crashed" in exchange.failure_reason
    assert exchange.attempt_statuses == ("500", "500", "500") and "3 attempts" in exchange.failure_reason
    assert server.requests_received == 3 and "model crashed" in exchange.raw_response


def test_a_rate_limit_is_retried_with_backoff_until_it_succeeds(server):
    server.intercept = lambda number, body: (Reply(429, '{"error": {"message": "slow down"}}', {"retry-after-ms": "20"})
                                             if number == 1 else None)
    exchange = ChatClient(endpoint(server.url, max_retries=2)).complete(messages())
    assert exchange.answered and exchange.attempt_statuses == ("429", "200")
    assert json.loads(exchange.content) == {"affected_services": GOLD}


def test_a_body_that_is_not_a_completion_is_a_failure(server):
    server.intercept = lambda number, body: Reply(200, "<html>proxy error</html>")
    exchange = ChatClient(endpoint(server.url)).complete(messages())
    assert exchange.failure_reason.startswith("malformed response: the response is not JSON")
    assert exchange.raw_response == "<html>proxy error</html>"


def test_unknown_models_and_foreign_prompts_are_client_errors(server):
    unknown = ChatClient(endpoint(server.url, "gpt-nothing")).complete(messages())
    assert unknown.failure_reason.startswith("HTTP 404") and "oracle" in unknown.failure_reason
    foreign = ChatClient(endpoint(server.url)).complete([{"role": "user", "content": "What is 2 + 2?"}])
    assert foreign.failure_reason.startswith("HTTP 400") and "answer frame" in foreign.failure_reason


def test_usage_absent_from_the_response_stays_absent():
    body = json.dumps({"choices": [{"message": {"content": "{}"}}]})
    assert read_completion(body) == ("{}", None, None, None)
    with_strings = json.dumps({"choices": [{"message": {"content": "{}"}}], "usage": {"prompt_tokens": "12"}})
    assert read_completion(with_strings)[2] is None  # never coerced


def test_the_api_key_is_sent_but_never_logged(server, monkeypatch, caplog):
    monkeypatch.setenv("GCL_TEST_API_KEY", API_KEY)
    headers = []
    server.intercept = lambda number, body: None
    caplog.set_level(logging.DEBUG)
    client = ChatClient(endpoint(server.url, max_retries=1))
    client._client._client.event_hooks["request"].append(lambda request: headers.append(request.headers))
    exchange = client.complete(messages())
    assert client.has_key and headers[0]["authorization"] == f"Bearer {API_KEY}"
    assert API_KEY not in caplog.text and API_KEY not in exchange.raw_request + exchange.raw_response
    assert caplog.records  # the client did log at debug level: the assertion above looked at something


@pytest.mark.parametrize("settings, message", [
    (dict(base_url="ftp://x", model="m"), "http"),
    (dict(base_url="http://127.0.0.1:1/v1", model=""), "model"),
    (dict(base_url="http://127.0.0.1:1/v1", model="m", max_tokens=0), "positive"),
    (dict(base_url="http://127.0.0.1:1/v1", model="m", token_limit_field="limit"), "token limit"),
    # D14: NaN passed `timeout <= 0` and became "Invalid value NaN" inside the HTTP client; a NaN
    # temperature could not be sent as JSON.
    (dict(base_url="http://127.0.0.1:1/v1", model="m", timeout_seconds=float("nan")), "finite"),
    (dict(base_url="http://127.0.0.1:1/v1", model="m", timeout_seconds=float("inf")), "finite"),
    (dict(base_url="http://127.0.0.1:1/v1", model="m", temperature=float("nan")), "temperature"),
    (dict(base_url="http://127.0.0.1:1/v1", model="m", temperature=-1.0), "temperature"),
])
def test_bad_endpoint_settings_are_refused(settings, message):
    with pytest.raises(ParameterError, match=message):
        Endpoint(**settings)


def test_a_connection_beyond_loopback_is_refused_in_these_tests():
    import socket
    with socket.socket() as probe, pytest.raises(AssertionError, match="beyond loopback"):
        probe.connect(("192.0.2.1", 80))  # TEST-NET-1: never reached, the guard refuses first


def test_a_bug_in_the_call_is_raised_not_recorded_as_a_failed_request(server, monkeypatch):
    client = ChatClient(endpoint(server.url))

    def broken(**body):
        raise ZeroDivisionError("a bug, not a failed request")

    monkeypatch.setattr(client._client.chat.completions.with_streaming_response, "create", broken)
    with pytest.raises(ZeroDivisionError):
        client.complete(messages())


class DrippingServer:
    """A loopback endpoint that sends its headers at once, then `body` one byte every `gap` seconds."""

    def __init__(self, body: bytes, gap: float, declared_length: int | None = None) -> None:
        import socket
        import threading

        self.body, self.gap = body, gap
        self.declared_length = len(body) if declared_length is None else declared_length
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1"
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:

        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        with connection:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                               + f"Content-Length: {self.declared_length}\r\n\r\n".encode())
            try:
                for index in range(len(self.body)):
                    if self.stopped.wait(self.gap):
                        return
                    connection.sendall(self.body[index:index + 1])
            except OSError:
                return

    def close(self) -> None:
        self.stopped.set()
        self.listener.close()


def test_a_reply_that_drips_is_bounded_by_the_total_timeout():
    """D2: an endpoint sending a byte every 0.2 s kept an attempt alive as long as it dripped (an idle timeout)."""
    import time

    dripping = DrippingServer(completion_body("{}", "oracle", 1, 1, 1).encode(), gap=0.2)
    try:
        started = time.perf_counter()
        exchange = ChatClient(endpoint(dripping.url, timeout_seconds=1.0)).complete(messages())
        elapsed = time.perf_counter() - started
    finally:
        dripping.close()
    assert exchange.failure_reason == "timeout after 1 s (the reply was still arriving)"
    assert elapsed < 2.5  # the timeout plus at most one gap between bytes, never the whole drip (~40 s)


def test_a_reply_over_the_size_cap_is_refused_while_reading(server, monkeypatch):
    """D6: a 200 MB reply was read whole, stored twice, and poisoned the run store; it stops at the cap now."""
    from core.evaluate import client

    monkeypatch.setattr(client, "MAX_REPLY_BYTES", 50_000)
    server.intercept = lambda number, body: Reply(200, completion_body("x" * 200_000, "oracle", 1, 1, number))
    exchange = ChatClient(endpoint(server.url)).complete(messages())
    assert exchange.failure_reason == "the reply is larger than 50,000 bytes, the limit for a model's reply"
    assert exchange.content is None and len(exchange.raw_response) <= 2_000


@pytest.mark.parametrize(("content", "reason"), [
    ('{"a": ' * 100_000 + "1" + "}" * 100_000, "malformed response: the response nests too deeply"),
])
def test_hostile_completion_bodies_are_malformed_responses_not_crashes(content, reason):
    """D7: JSON nested 100,000 deep raised RecursionError out of the evaluation."""
    with pytest.raises(ValueError, match="nests too deeply"):
        read_completion(content)


def test_a_reply_holding_a_lone_surrogate_is_a_failure_that_can_be_stored(server):
    """D7: "\\ud800" in the content reached SQLite as text that cannot be encoded, and stopped the run."""
    server.intercept = lambda number, body: Reply(200, completion_body("ok \\ud800 then", "oracle", 1, 1, number)
                                                  .replace("\\\\ud800", "\\ud800"))
    exchange = ChatClient(endpoint(server.url)).complete(messages())
    assert exchange.failure_reason.startswith("malformed response: the content holds a lone surrogate")
    exchange.raw_response.encode("utf-8")  # storable


def test_a_retry_after_longer_than_the_client_waits_is_said_in_the_failure(server):
    """D29: a 429 with Retry-After: 3600 is not retried (the client waits at most 120 s), and the failure says why."""
    server.intercept = lambda number, body: Reply(429, '{"error": {"message": "slow down"}}', {"retry-after": "3600"})
    exchange = ChatClient(endpoint(server.url, max_retries=2, timeout_seconds=300)).complete(messages())
    assert exchange.attempt_statuses == ("429",)
    assert ("the server asked to wait 3,600 s before retrying, longer than the 120 s this client waits, so it was not "
            "retried") in exchange.failure_reason


@pytest.mark.timeout(20)
@pytest.mark.parametrize("headers", [{"retry-after": "30"}, {"retry-after-ms": "30000"}])
def test_a_retry_after_longer_than_the_timeout_fails_at_once_saying_so(server, headers):
    """D29: with --timeout 2, a Retry-After of 30 s was slept through on every retry (the openai client waits up to
    120 s): a wait longer than the attempt it precedes looks like a hang. Now the request fails at once."""
    import time

    server.intercept = lambda number, body: Reply(429, '{"error": {"message": "slow down"}}', headers)
    started = time.perf_counter()
    exchange = ChatClient(endpoint(server.url, max_retries=3, timeout_seconds=2)).complete(messages())
    assert time.perf_counter() - started < 5 and exchange.attempt_statuses == ("429",)
    assert exchange.failure_reason == (
        'HTTP 429: {"error": {"message": "slow down"}} (the server asked to wait 30 s before retrying, longer than '
        "this run's timeout of 2 s, so it was not retried: run the same command later or raise --timeout; answered "
        "requests are kept)")


def test_a_retry_after_within_the_timeout_is_waited_for(server):
    server.intercept = lambda number, body: (Reply(429, '{"error": {"message": "slow down"}}', {"retry-after": "1"})
                                             if number == 1 else None)
    exchange = ChatClient(endpoint(server.url, max_retries=2, timeout_seconds=5)).complete(messages())
    assert exchange.answered and exchange.attempt_statuses == ("429", "200")


def test_retry_after_is_read_in_seconds_milliseconds_or_as_a_date():
    import email.utils
    import time

    from core.evaluate.client import retry_after_seconds

    assert retry_after_seconds({"retry-after": "3600"}) == 3600
    assert retry_after_seconds({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    in_an_hour = email.utils.formatdate(time.time() + 3600, usegmt=True)
    assert 3590 < retry_after_seconds({"retry-after": in_an_hour}) <= 3600
    assert retry_after_seconds({"retry-after": "soon"}) is None and retry_after_seconds({}) is None
    assert retry_after_seconds({"retry-after": "nan"}) is None and retry_after_seconds({"retry-after": "-5"}) is None
