"""The CKG benchmark's query files (`queries_<domain>.jsonl`): each record's type T1-T5 mapped to a template.

A record names its concepts by CSV id: T1 and T2 `concept_id`; T3 `path_ids` (the chain, concept
first, down to the start) and `concept_id`; T4 `taxonomy_id`; T5 `concept_id_a` and `concept_id_b`.
Its `query` is the question text, `ground_truth` the labels the benchmark scores against,
`hop_depth` the length of the dependency chain. Other fields (domain, path_ids...) are kept as text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from core.graph.model import Graph
from core.queries import ENTITY, PREREQUISITE_PATH, PREREQUISITES, RELATION_BETWEEN, TAXONOMY_MEMBERS, Query, query
from core.questions.graph_check import check_on_graph
from core.questions.lines import (
    LineProblem,
    as_text,
    json_lines,
    json_object,
    parse_lines,
    read_question_file,
    required_text,
    text_of,
    whole_number,
)
from core.questions.model import Question, QuestionSet

QUERY_TYPES = ("T1_entity", "T2_dependency", "T3_path", "T4_aggregate", "T5_cross_concept")
KNOWN_FIELDS = {"id", "type", "query", "ground_truth", "hop_depth"}


def _identifier(record: dict, field: str) -> str:
    value = record.get(field)
    if isinstance(value, bool) or not isinstance(value, (int, str)) or str(value) == "":
        raise LineProblem(f"{record.get('type')} needs {field!r} (a concept id), got {value!r}")
    return str(value)


def ckg_query(record: dict) -> Query:
    """The template and parameters of one CKG record."""
    kind = record.get("type")
    if kind == "T1_entity":
        return query(ENTITY, concept=_identifier(record, "concept_id"))
    if kind == "T2_dependency":
        return query(PREREQUISITES, concept=_identifier(record, "concept_id"))
    if kind == "T3_path":
        path = record.get("path_ids")
        if not isinstance(path, list) or len(path) < 2:
            raise LineProblem(f"T3_path needs 'path_ids' (the chain, at least two concept ids), got {path!r}")
        return query(PREREQUISITE_PATH, start=_identifier({"type": kind, "end": path[-1]}, "end"),
                     concept=_identifier(record, "concept_id"))
    if kind == "T4_aggregate":
        taxonomy = record.get("taxonomy_id")
        if not isinstance(taxonomy, str) or not taxonomy:
            raise LineProblem(f"T4_aggregate needs 'taxonomy_id' (a taxonomy code), got {taxonomy!r}")
        return query(TAXONOMY_MEMBERS, taxonomy=taxonomy)
    if kind == "T5_cross_concept":
        return query(RELATION_BETWEEN, first=_identifier(record, "concept_id_a"),
                     second=_identifier(record, "concept_id_b"))
    raise LineProblem(f"unknown CKG query type {kind!r}; the types are {', '.join(QUERY_TYPES)}")


def _question(line_number: int, line: str) -> Question:
    record = json_object(line)
    ground_truth = record.get("ground_truth")
    if ground_truth is not None and not isinstance(ground_truth, list):
        raise LineProblem(f"'ground_truth' must be a list of labels, got {type(ground_truth).__name__}")
    return Question(
        id=str(record.get("id") or f"line-{line_number}"), text=required_text(record, "query"),
        query=ckg_query(record), ground_truth=ground_truth, query_type=str(record["type"]),
        hop_depth=whole_number(record.get("hop_depth"), "hop_depth"),
        metadata=tuple(sorted((key, as_text(value)) for key, value in record.items() if key not in KNOWN_FIELDS)))


def _repeats_numbered(graph: Graph | None = None) -> Callable[[int, str], Question]:
    """The record parser, where a record repeating an earlier one exactly is kept as `<id>#2`, `#3`...

    The released query files repeat some records verbatim (nvidia-jetson: 4 of 164), and the
    benchmark scores every line, so they stay, marked `repeat_of`; an id reused by a different
    record is refused.
    """
    seen: dict[str, tuple[int, str]] = {}
    repeats: dict[str, int] = {}

    def parse(line_number: int, line: str) -> Question:
        question = _question(line_number, line)
        if graph is not None:
            check_on_graph(question.query, graph)
        if question.id not in seen:
            seen[question.id] = (line_number, line.strip())
            return question
        first_line, first_text = seen[question.id]
        if line.strip() != first_text:
            raise LineProblem(f"id {question.id!r} was already used on line {first_line} by a different record")
        repeats[question.id] = repeats.get(question.id, 1) + 1
        metadata = tuple(sorted((*question.metadata, ("repeat_of", f"line {first_line}"))))
        return replace(question, id=f"{question.id}#{repeats[question.id]}", metadata=metadata)
    return parse


def parse_ckg_questions(data: bytes | str, name: str = "ckg", source: str = "CKG query file", *,
                        graph: Graph | None = None) -> QuestionSet:
    """Every record of a CKG query file; a bad record refuses the whole file, naming its line. With `graph`,
    the concepts, path ends and taxonomy codes the records name must be in it."""
    text = text_of(data, source)
    questions = parse_lines(json_lines(text), _repeats_numbered(graph), source)
    return QuestionSet(name, "ckg", tuple(questions))


def load_ckg_questions(path: str | Path, graph: Graph | None = None) -> QuestionSet:
    path = Path(path)
    return parse_ckg_questions(read_question_file(path), path.stem, str(path), graph=graph)


def looks_like_ckg(text: str) -> bool:
    """True when the first record has a CKG `type` (T1_entity ...) and a `query` text."""
    for _, line in json_lines(text)[:1]:
        try:
            record = json_object(line)
        except LineProblem:
            return False
        return record.get("type") in QUERY_TYPES and isinstance(record.get("query"), str)
    return False
