"""The prompt frame: one versioned template around the graph data, byte-identical across formats.

Only three slots change from one format to another: the format's name, its grammar and the graph
data. The rest (instructions, graph semantics, the JSON answer shape, the question) is the same
text for every format, so no format gains by hiding instructions outside the measured input.
The grammar belongs to the measured tokens together with the data; the frame's own tokens are
reported apart. The template text and its version are stored with every run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import ParameterError
from core.prompt.answers import AnswerSchema
from core.tokens.protocol import Tokenizer

FRAME_VERSION = "answer-frame-v1"

# After the seed's "Prompt template", with a grammar slot (the seed asks for grammar instructions to
# sit inside the measured input) and one sentence saying that every edge is directed.
TEMPLATE = """\
You answer only from the graph data below.

Graph semantics:
- Every edge is directed: "A relation B" goes from A to B.
- "A depends_on B" means A is a consumer of B.
- If B fails, A may be affected.
- Dependency impact propagates transitively in the reverse direction.
- "A owned_by T" identifies the team responsible for A.

Return JSON only:
{answer_schema}

Question:
{question}

GRAPH_FORMAT:
{format_name}

GRAPH_GRAMMAR:
{grammar}

GRAPH_DATA:
{graph_data}"""

SLOTS = ("answer_schema", "question", "format_name", "grammar", "graph_data")
# The template split once into literal text and slot names; filling joins them, so a value that
# happens to contain "{question}" is never filled again.
_PIECES = re.split(r"\{(\w+)\}", TEMPLATE)
_LITERALS = _PIECES[0::2]
assert tuple(_PIECES[1::2]) == SLOTS, "the template's slots are out of order"


@dataclass(frozen=True)
class PromptParts:
    answer_schema: str
    question: str
    format_name: str
    grammar: str
    graph_data: str


def fill(parts: PromptParts) -> str:
    values = [getattr(parts, slot) for slot in SLOTS]
    return "".join(literal + value for literal, value in zip(_LITERALS, values + [""]))


def build_prompt(schema: AnswerSchema, question: str, format_name: str, grammar: str, graph_data: str) -> str:
    """The user message sent to the model."""
    return fill(PromptParts(schema.example_json(), question, format_name, grammar, graph_data))


def frame_tokens(parts: PromptParts, tokenizer: Tokenizer) -> int:
    """Tokens of the frame alone: the prompt with its grammar and data slots empty.

    The grammar and the data are counted on their own (they are what a format is charged for), so
    frame + grammar + data can differ from the whole prompt's count by the few tokens that merge
    across a slot's edge; the whole prompt is counted too.
    """
    return tokenizer.count(fill(PromptParts(parts.answer_schema, parts.question, parts.format_name, "", "")))


def parse_prompt(text: str, grammars: Mapping[str, str]) -> PromptParts:
    """Split a prompt this frame wrote back into its slots (the reference readers read prompts this way).

    `grammars` maps the known format names to their grammar. The format section is found by its
    exact text (name and grammar), the first one after the question; the data is everything after it.
    Raises ParameterError when the text is not a prompt of this frame version.
    """
    head, schema_end = _LITERALS[0], _LITERALS[1]
    if not text.startswith(head):
        raise ParameterError("the prompt does not start with the answer frame's instructions", "prompt",
                             f"send prompts written by {FRAME_VERSION}")
    schema_stop = text.find(schema_end, len(head))
    if schema_stop < 0:
        raise ParameterError("the prompt has no question section", "prompt", f"send prompts written by {FRAME_VERSION}")
    question_start = schema_stop + len(schema_end)
    best: tuple[int, str] | None = None
    for name, grammar in grammars.items():
        section = _LITERALS[2] + name + _LITERALS[3] + grammar + _LITERALS[4]
        position = text.find(section, question_start)
        if position >= 0 and (best is None or position < best[0]):
            best = (position, name)
    if best is None:
        raise ParameterError("the prompt names no known graph format with its grammar", "prompt GRAPH_FORMAT",
                             f"use one of: {', '.join(grammars)}")
    position, name = best
    data_start = position + len(_LITERALS[2] + name + _LITERALS[3] + grammars[name] + _LITERALS[4])
    return PromptParts(text[len(head):schema_stop], text[question_start:position], name, grammars[name],
                       text[data_start:])
