"""`graph-context-lab serve-reader`: the oracle and first-k readers behind an OpenAI-compatible HTTP endpoint."""

from __future__ import annotations

import argparse
import errno
import socket
import sys

from core.commands.graph_source import non_negative, port
from core.errors import ParameterError
from core.evaluate.reader_server import LOOPBACK, ReaderServer
from core.evaluate.readers import DEFAULT_K, READERS


def start_server(host: str, port: int, k: int) -> ReaderServer:
    """The server, or a ParameterError saying what to do instead of the socket's bare error."""
    try:
        return ReaderServer(host, port, k=k)
    except socket.gaierror as error:
        raise ParameterError(f"the host {host!r} is not known ({error.strerror})", "--host",
                             f"give an address of this machine, e.g. {LOOPBACK}") from None
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise ParameterError(f"port {port} is already in use", "--port",
                                 "stop the program using it, choose another port, or give --port 0 for a free one") from None
        if error.errno == errno.EACCES:
            raise ParameterError(f"listening on port {port} is not permitted", "--port",
                                 "choose a port above 1023, or --port 0 for a free one") from None
        if error.errno == errno.EADDRNOTAVAIL:
            raise ParameterError(f"{host!r} is not an address of this machine", "--host",
                                 f"give an address of this machine, e.g. {LOOPBACK}") from None
        raise ParameterError(f"the server cannot listen on {host}:{port}: {error.strerror or error}", "--host/--port",
                             "choose another host or port") from None


def run(arguments: argparse.Namespace) -> int:
    server = start_server(arguments.host, arguments.port, arguments.k)
    print(f"reader server on {server.url} (models: {', '.join(READERS)}); press Ctrl-C to stop", flush=True)
    if arguments.host != LOOPBACK:
        print(f"note: listening on {arguments.host}, not only on loopback", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "serve-reader", help="serve the oracle and first-k reference readers over OpenAI-compatible HTTP",
        description="Answer chat-completions requests written by the evaluation's prompt frame without a model: "
                    "model 'oracle' decodes the graph data and runs the query's solver (the ceiling given what "
                    "survived); 'first-k' answers with the first k ids of the context (a no-traversal baseline).")
    parser.add_argument("--host", default=LOOPBACK, help=f"address to listen on (default {LOOPBACK}, loopback only)")
    parser.add_argument("--port", type=port, default=8765, help="port (default 8765; 0 picks a free one)")
    parser.add_argument("--k", type=non_negative, default=DEFAULT_K,
                        help=f"how many ids the first-k reader answers with (default {DEFAULT_K})")
    parser.set_defaults(run=run)
