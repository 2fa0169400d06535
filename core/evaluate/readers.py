"""Reference readers: answer a prompt of the frame without a model, to bound what a model can do.

- `oracle`: decode the graph data with the format's own decoder and run the query's solver on what
  decoded: the best possible answer given what survived the budget. Its exact match therefore
  equals traversal accuracy (for a question that names a node by label, as long as that node's
  record survived to link the label to its id, as a model would need it too). Data that does not
  decode, or no data at all, gets a plain-text refusal (not JSON), so it scores like any unreadable
  context: zero.
- `first-k`: a baseline that reads without traversing: the first k node ids of the context, in the
  order they appear, answer every list field (the question's own ids left out); a mapping field
  maps each of them to the targets of its edges in the data; a value field takes the first id.

A reader finds the query by matching the question text against the query templates' question
texts and reading the parameters back, node names through the decoded graph (checked by writing the
question again from them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from core.errors import FormatError, GraphContextError, ParameterError
from core.formats.base import Format
from core.graph.model import Graph
from core.prompt.answers import AnswerSchema, schema_for
from core.prompt.frame import PromptParts, parse_prompt
from core.queries import Query, QueryTemplate
from core.questions.reading import by_wording

DEFAULT_K = 5


def resolve_query(question: str, templates: Iterable[QueryTemplate], graph: Graph | None = None) -> Query:
    """The query whose question text is exactly `question` (core.questions.reading.by_wording), names read
    through `graph`. Raises ParameterError when no template wrote this question."""
    found = by_wording(question, templates, graph)
    if found is None:
        raise ParameterError("the question matches no query template", "prompt question",
                             "ask a question written by one of the registered query templates")
    return found


@dataclass(frozen=True)
class ReadRequest:
    """What a reader gets: the prompt's slots, the format, and the templates its question may come from."""

    parts: PromptParts
    format: Format
    templates: tuple[QueryTemplate, ...]

    def query_on(self, graph: Graph) -> Query:
        """The question's query, its node names read through `graph` (the decoded context)."""
        return resolve_query(self.parts.question, self.templates, graph)


def read_request(prompt: str, formats: Mapping[str, Format], templates: Iterable[QueryTemplate]) -> ReadRequest:
    """The prompt's slots and format; a question no template wrote is refused before any data is read."""
    parts = parse_prompt(prompt, {name: format_.grammar for name, format_ in formats.items()})
    request = ReadRequest(parts, formats[parts.format_name], tuple(templates))
    request.query_on(Graph.build([], []))
    return request


# The budget engine may end a cut context with a truncation marker line, "[37 of 131 records shown]"
# (or "tokens shown"; the record policy's may add ": nodes 20 of 43, edges 14 of 70"), after the document; a
# reader decodes the document without it.
# Safe on model contexts: anchored at the end by \Z after two digit runs split by literals.
_MARKER = re.compile(r"\n\[\d+ of \d+ (?:records|tokens) shown(?:: nodes \d+ of \d+, edges \d+ of \d+)?\]\Z")


def document_of(graph_data: str) -> str:
    """The graph data without a trailing truncation marker line."""
    return _MARKER.sub("", graph_data, count=1)


def _solved(request: ReadRequest) -> tuple[Graph, object, AnswerSchema] | str:
    """The decoded graph, the solver's answer on it and the answer schema, or a plain-text refusal."""
    document = document_of(request.parts.graph_data)
    if not document:  # as the sweep counts it: an empty cut does not parse
        return "There is no graph data to read."
    try:
        graph = request.format.decode(document)
    except FormatError as error:
        return f"The graph data cannot be read as {request.format.name}: {error}"
    try:
        query_ = request.query_on(graph)  # names in the question are labels where nodes have one
        answer = query_.solve(graph).answer
    except GraphContextError as error:
        return f"The question cannot be answered from this graph: {error}"
    return graph, answer, schema_for(query_.name, answer)


def oracle(request: ReadRequest) -> str:
    solved = _solved(request)
    if isinstance(solved, str):
        return solved
    _, answer, schema = solved
    return json.dumps(schema.fields_of(answer), ensure_ascii=False)


def _ids_in_order(graph: Graph, text: str) -> list[str]:
    """Node ids ordered by where they first appear in the text (ids written escaped sort last)."""
    positions = {node.id: text.find(node.id) for node in graph.nodes if node.id}
    return sorted(positions, key=lambda node_id: (positions[node_id] < 0, positions[node_id], node_id))


def first_k(request: ReadRequest, k: int = DEFAULT_K) -> str:
    solved = _solved(request)  # the solver's answer is used for its shape only
    if isinstance(solved, str):
        return solved
    graph, _, schema = solved
    asked = {node.id for node in graph.nodes if node.id and node.id in request.parts.question}
    chosen = [node_id for node_id in _ids_in_order(graph, request.parts.graph_data) if node_id not in asked][:k]
    targets: dict[str, list[str]] = {node_id: [] for node_id in chosen}
    for edge in graph.edges:
        if edge.source in targets and edge.target not in targets[edge.source]:
            targets[edge.source].append(edge.target)
    answer: dict[str, object] = {}
    for field in schema.fields:
        if field.kind == "mapping":
            answer[field.name] = targets
        elif field.kind == "value":
            answer[field.name] = chosen[0] if chosen else None
        else:
            answer[field.name] = chosen
    return json.dumps(answer, ensure_ascii=False)


READERS: dict[str, Callable[[ReadRequest], str]] = {"oracle": oracle, "first-k": first_k}
