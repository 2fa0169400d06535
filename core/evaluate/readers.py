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

import ast
import json
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from core.errors import FormatError, GraphContextError, ParameterError
from core.formats.base import Format
from core.graph.model import Graph
from core.prompt.answers import AnswerSchema, schema_for
from core.prompt.frame import PromptParts, parse_prompt
from core.queries import Query, QueryTemplate, query
from core.queries.model import spoken_name

DEFAULT_K = 5


def _pattern(template: QueryTemplate) -> re.Pattern:
    parts = []
    for literal, name, _, _ in string.Formatter().parse(template.question):
        parts.append(re.escape(literal))
        if name is not None:
            parts.append(f"(?P<{name}>.*?)")
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def _value(template: QueryTemplate, name: str, text: str) -> object:
    """A parameter read back from question text: a number where the solver's default is one, else text."""
    default = template.defaults().get(name)
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return type(default)(text)
    return text


def _literal_length(template: QueryTemplate) -> int:
    return sum(len(literal) for literal, _, _, _ in string.Formatter().parse(template.question))


def _names(graph: Graph) -> dict[str, str]:
    """Name -> node id, for questions that name nodes by label (`Query.question_on`) or by id.

    An id names its node; a label names its node unless the label is also an id. A label shared by
    several nodes names the smallest id (ids are sorted in a canonical graph).
    """
    names: dict[str, str] = {}
    for node in graph.nodes:
        names.setdefault(spoken_name(graph, node.id), node.id)  # as question_on names it
    names.update((node.id, node.id) for node in graph.nodes)
    return names


def _arguments(template: QueryTemplate, match: re.Match, names: dict[str, str]) -> dict[str, object]:
    arguments: dict[str, object] = {}
    for name, text in match.groupdict().items():
        if name not in template.node_parameters:
            arguments[name] = _value(template, name, text)
        elif template.collects_seeds:  # a list of nodes: "a, b, c" by label, "('a', 'b', 'c')" by id
            parts = ast.literal_eval(text) if text.startswith("(") else text.split(", ")
            arguments[name] = tuple(names.get(part, part) for part in parts)
        else:
            arguments[name] = names.get(text, text)
    return arguments


def resolve_query(question: str, templates: Iterable[QueryTemplate], graph: Graph | None = None) -> Query:
    """The query whose question text (by label as `Query.question_on(graph)`, or by id) is exactly `question`.

    Node names are read back through `graph` (labels to ids); without a graph, names are ids. A list
    of nodes is split at ", ". A parameter the question does not mention takes the solver's default,
    as a reader would assume.
    Raises ParameterError when no template wrote this question.
    """
    graph = graph if graph is not None else Graph.build([], [])
    names = _names(graph)
    # "What is {concept}?" also matches every longer question: the template whose own words cover
    # most of the question is tried first.
    for template in sorted(templates, key=_literal_length, reverse=True):
        match = _pattern(template).match(question)
        if match is None:
            continue
        try:
            candidate = query(template, **_arguments(template, match, names))
        except (ValueError, SyntaxError, TypeError, GraphContextError):
            continue
        if question in (candidate.question_on(graph), candidate.question):
            return candidate
    raise ParameterError("the question matches no query template", "prompt question",
                         "ask a question written by one of the registered query templates")


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
# (or "tokens shown"), after the document; a reader decodes the document without it.
_MARKER = re.compile(r"\n\[\d+ of \d+ (?:records|tokens) shown\]\Z")


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
