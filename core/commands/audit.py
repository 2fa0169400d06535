"""`graph-context-lab audit`: decode a context another pipeline built and say what it holds of a graph.

Its exact tokens, the graph's units it covers, records naming what the graph does not have, dangling edges,
records written twice (where its format lets them be counted by their text), and with `--question` the evidence
it keeps and whether the question is answered from it (core.analysis.audit, through the workbench).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.commands.graph_source import add_graph_options, graph_from_arguments, load_limits
from core.commands.tokenizer_options import DEFAULT_TOKENIZER, KNOWN, tokenizer_name
from core.errors import ParameterError
from core.formats import FORMATS
from core.io.context_text import read_context
from core.io.loading import format_names
from core.reports.audit_report import audit_document, audit_lines
from core.tokens import TOKENIZERS
from core.workbench import Workbench

HELP = "decode a context another pipeline built: its tokens, units, duplicates, dangling edges and evidence"


def run(arguments: argparse.Namespace) -> int:
    if arguments.question is not None and not arguments.question.strip():
        raise ParameterError("--question is empty", "--question", "ask a question that names nodes of the graph, or "
                             "leave the option out")
    limits = load_limits(arguments)
    text = read_context(arguments.context, limits)  # before the graph: a wrong path fails at once
    graph = graph_from_arguments(arguments)
    result = Workbench().audit(graph, text, FORMATS.get(arguments.context_format),
                               tokenizer=TOKENIZERS.get(arguments.tokenizer), question=arguments.question,
                               source=arguments.context.name, limits=limits)
    if arguments.json:
        print(json.dumps(audit_document(result), indent=1, ensure_ascii=False))
    else:
        print("\n".join(audit_lines(result)))
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:
    # "resolve": the context's --format replaces the graph loader's, which is --graph-format here.
    parser = commands.add_parser(
        "audit", help=HELP, conflict_handler="resolve",
        description="Decode a context file with its format's own decoder and report its exact tokens, the units of "
                    "the graph it holds, records naming nodes or edges the graph does not have, edges whose endpoint "
                    "has no node record (dangling), and units written more often than the graph has them. Records "
                    "are counted by their text where the format writes one record per line or block as the lab "
                    "writes it (otherwise the report says duplicates are not counted, and why). With --question: "
                    "the share of the question's evidence the context keeps, and whether its answer comes out of it.")
    add_graph_options(parser)
    loader = next(group for group in parser._action_groups if group.title == "reading a graph file")
    loader.add_argument("--graph-format", dest="format", choices=format_names(), metavar="NAME",
                        help="the graph file's format (default: detected)")
    audited = parser.add_argument_group("the context")
    audited.add_argument("--context", type=Path, required=True, metavar="FILE",
                         help="the context text to audit (read within --max-bytes; UTF-8 text, not binary)")
    audited.add_argument("--format", dest="context_format", required=True, choices=FORMATS.names(), metavar="FORMAT",
                         help=f"the format the context is written in: {', '.join(FORMATS.names())}")
    audited.add_argument("--question", metavar="TEXT",
                         help="a question about the graph, read as every command reads one; the report adds the "
                              "evidence the context keeps and whether the question is answered from it")
    audited.add_argument("--tokenizer", type=tokenizer_name, default=DEFAULT_TOKENIZER, metavar="NAME",
                         help=f"the tokenizer that counts the context (default {DEFAULT_TOKENIZER}): {KNOWN}")
    audited.add_argument("--json", action="store_true", help="print the audit as one JSON document (every list in "
                                                             "full) instead of lines")
    parser.set_defaults(run=run)
