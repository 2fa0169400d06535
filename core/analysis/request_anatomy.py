"""The whole request per format, as the reader's provider bills it: chat wrapper + frame + context.

The prompt is the lab's answer frame (`core.prompt.frame`) around the format's grammar and data; the
chat template of the model that reads it (`core.tokens.chat_wrapper`) wraps it. `context` is what a
budget counts (the grammar and the data, each on its own), `frame` the rest of the prompt's own count,
`wrapper` what the template adds; they sum to the exact tokens of the wrapped request.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.formats import FORMATS
from core.formats.base import Format
from core.graph.model import Graph
from core.graph.units import graph_units
from core.prompt.answers import AnswerSchema
from core.prompt.frame import build_prompt
from core.tokens.chat_wrapper import RequestTokens, chat_template_for, messages_for
from core.tokens.protocol import Tokenizer


def request_anatomy(reader: str, tokenizer: Tokenizer, schema: AnswerSchema, question: str, format_: Format,
                    data: str) -> RequestTokens | None:
    """The request sending `data` in `format_` with `question` to `reader` (a model family or gguf:PATH), split
    into wrapper, frame and context; None when the reader's chat template is not published (Claude, Gemini)."""
    template = chat_template_for(reader)
    if template is None:
        return None
    prompt = build_prompt(schema, question, format_.name, format_.grammar, data)
    total = template.count_request(tokenizer, messages_for(prompt))
    own = tokenizer.count(prompt)
    context = tokenizer.count(format_.grammar) + tokenizer.count(data)
    return RequestTokens(template.name, total - own, own - context, context, total)


def request_rows(reader: str, tokenizer: Tokenizer, schema: AnswerSchema, question: str, graph: Graph,
                 format_names: Sequence[str]) -> list[dict]:
    """One row per format: wrapper, frame, context and total tokens of the request holding its complete text."""
    units = graph_units(graph)
    rows = []
    for name in format_names:
        format_ = FORMATS.get(name)
        counted = request_anatomy(reader, tokenizer, schema, question, format_, format_.render(graph, units).text)
        if counted is not None:
            rows.append({"format": name, **counted.as_row()})
    return rows
