"""`graph-context-lab serve-reader`: the oracle and first-k readers behind an OpenAI-compatible HTTP endpoint."""

from __future__ import annotations

import argparse
import sys

from core.commands.graph_source import non_negative
from core.evaluate.reader_server import LOOPBACK, ReaderServer
from core.evaluate.readers import DEFAULT_K, READERS


def run(arguments: argparse.Namespace) -> int:
    server = ReaderServer(arguments.host, arguments.port, k=arguments.k)
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
    parser.add_argument("--port", type=non_negative, default=8765, help="port (default 8765; 0 picks a free one)")
    parser.add_argument("--k", type=non_negative, default=DEFAULT_K,
                        help=f"how many ids the first-k reader answers with (default {DEFAULT_K})")
    parser.set_defaults(run=run)
