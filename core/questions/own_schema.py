"""The project's own question files: JSON lines or CSV, one question per line, and their writers.

Fields (JSONL keys or CSV columns):
- `question` (required): the text, as a user would ask it.
- `query`: a query template name (core.queries.QUERIES), e.g. `impact`, `t3_prerequisite_path`. Optional
  when the file is loaded with its graph: a record without one is a free-text question, read into its query
  by `core.questions.reading.read_question(graph, text)`, the one reader of questions (the record keeps its
  text, and `read_as` in its metadata says how it was read). Without a graph such a record is refused (its
  line says it needs the graph to be read), and a text the reader cannot read is refused with its line and
  the reader's reason, never given another query.
- `parameters`: the template's parameters, a JSON object (in CSV a cell holding one), e.g.
  `{"failed": "db-identity", "relation": "depends_on"}`; a list for a parameter taking several nodes. Only
  with `query` (a free-text question's parameters come from its text).
- `id`: unique per file (default `line-N`); `ground_truth`: the recorded answer (JSON); `type`: a
  query type label; `hop_depth`: a whole number. Any other field is kept as text metadata.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from core.errors import LoadError
from core.graph.model import Graph
from core.queries import TEMPLATES, Query, QueryTemplate, query
from core.questions.ckg import looks_like_ckg, parse_ckg_questions
from core.questions.graph_check import check_on_graph
from core.questions.lines import (
    LineProblem,
    as_text,
    bounded,
    json_lines,
    json_object,
    json_value,
    parse_lines,
    read_question_file,
    required_text,
    text_of,
    unique_ids,
    whole_number,
)
from core.questions.model import Question, QuestionSet
from core.questions.reading import SHAPES, QuestionNotRead, read_question

# By name, as core.queries.QUERIES lists them (the registry imports this package, so not it).
TEMPLATES_BY_NAME = {template.name: template for template in TEMPLATES}
FIELDS = ("id", "question", "query", "parameters", "ground_truth", "type", "hop_depth")
READ_AS = "read_as"  # the metadata key of a free-text question's reading ("read as t2_prerequisites(...)")
MAX_CELL = 131_072  # the csv module's own field limit, stated here so the message can say it


def _template(record: dict) -> QueryTemplate:
    name = required_text(record, "query")
    if name not in TEMPLATES_BY_NAME:
        raise LineProblem(f"unknown query template {name!r}; use one of: {', '.join(TEMPLATES_BY_NAME)}")
    return TEMPLATES_BY_NAME[name]


def _bound_query(template: QueryTemplate, parameters: object, graph: Graph | None) -> Query:
    if parameters is None or parameters == "":
        parameters = {}
    if not isinstance(parameters, dict):
        raise LineProblem(f"'parameters' must be a JSON object like {{\"name\": value}}, got {parameters!r}")
    unknown = sorted(set(parameters) - set(template.parameters))
    if unknown:
        raise LineProblem(f"{template.name} has no parameter(s) {', '.join(map(repr, unknown))}; its parameters "
                          f"are {', '.join(template.parameters)}")
    defaults = template.defaults()
    missing = [name for name in template.parameters if name not in parameters and name not in defaults]
    if missing:
        raise LineProblem(f"{template.name} needs the parameter(s) {', '.join(map(repr, missing))}")
    arguments = {name: _value(template, name, value, defaults.get(name)) for name, value in parameters.items()}
    bound = query(template, **arguments)
    if graph is not None:
        check_on_graph(bound, graph)
    return bound


def _value(template: QueryTemplate, name: str, value: object, default: object) -> object:
    several = template.collects_seeds and template.node_parameters and name == template.node_parameters[-1]
    if several:
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise LineProblem(f"parameter {name!r} takes a list of node ids, got {value!r}")
        return tuple(value)
    if isinstance(default, int) and not isinstance(default, bool):
        if isinstance(value, bool) or not isinstance(value, int):
            raise LineProblem(f"parameter {name!r} must be a whole number, got {value!r}")
        return bounded(value, name)  # "hops": -5 was read as unlimited depth
    if isinstance(value, (int, float)) and not isinstance(value, bool) and name in template.node_parameters:
        return str(value)  # a numeric id written without quotes
    if not isinstance(value, str):
        raise LineProblem(f"parameter {name!r} must be a text, got {value!r}")
    return value


def _read_query(text: str, record: dict, graph: Graph | None) -> tuple[Query, str]:
    """A free-text question's query and how it was read, by the one reader of questions."""
    if record.get("parameters") not in (None, "", {}):
        raise LineProblem("'parameters' are given without a 'query': name the template they are for, or leave "
                          "both out to have the query read from the question's text")
    if graph is None:
        raise LineProblem("no 'query': a question given by its text alone needs the graph to be read (load the "
                          "file with its graph, e.g. suite --graph GRAPH --questions FILE), or give it a 'query' "
                          "and its 'parameters'")
    try:
        reading = read_question(graph, text)
    except QuestionNotRead as error:
        raise LineProblem(f"no 'query', and the reader of questions could not read its text: {error.what}; ask it "
                          f"in one of these shapes: {'; '.join(SHAPES)}; or give the record a 'query' and its "
                          "'parameters'") from None
    return reading.query, reading.sentence(graph)


def _question(record: dict, line_number: int, graph: Graph | None) -> Question:
    text = required_text(record, "question")
    metadata = {key: as_text(value) for key, value in record.items() if key not in FIELDS and value not in (None, "")}
    if record.get("query") in (None, ""):
        bound, metadata[READ_AS] = _read_query(text, record, graph)
    else:
        bound = _bound_query(_template(record), record.get("parameters"), graph)
    question_id = record.get("id")
    return Question(
        id=str(question_id) if question_id not in (None, "") else f"line-{line_number}",
        text=text, query=bound,
        ground_truth=record.get("ground_truth"), query_type=str(record.get("type") or ""),
        hop_depth=whole_number(record.get("hop_depth"), "hop_depth"),
        metadata=tuple(sorted(metadata.items())))


def parse_questions_jsonl(data: bytes | str, *, graph: Graph | None = None, name: str = "questions",
                          source: str = "question file") -> QuestionSet:
    """A JSON-lines question file; with `graph`, node parameters must be nodes of it, and a record without a
    query is read from its text."""
    text = text_of(data, source)
    parsed = parse_lines(json_lines(text), unique_ids(lambda number, line: _question(json_object(line), number, graph)),
                         source)
    return QuestionSet(name, "jsonl", tuple(parsed))


def parse_questions_csv(data: bytes | str, *, graph: Graph | None = None, name: str = "questions",
                        source: str = "question file") -> QuestionSet:
    """A CSV question file with a header row; `parameters` and `ground_truth` cells hold JSON."""
    text = text_of(data, source)
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:
        raise LoadError(f"the CSV cannot be read: {error} (a cell longer than {MAX_CELL:,} characters, or a "
                        "stray quote)", source, "check quoting of the cells") from None
    header = [column.strip() for column in rows[0]] if rows else []
    if "question" not in header:
        raise LoadError("the CSV header must name the column 'question' (and 'query', unless the questions are "
                        "read from their text on the graph)", f"{source}, line 1",
                        f"start the file with a header such as {','.join(FIELDS)}")
    repeated = sorted({column for column in header if column and header.count(column) > 1})
    if repeated:  # the last of two 'question' columns silently won
        raise LoadError(f"the CSV header names {', '.join(map(repr, repeated))} more than once", f"{source}, line 1",
                        "keep one column of each name")
    numbered = [(number, row) for number, row in enumerate(rows[1:], start=2) if any(cell.strip() for cell in row)]

    def parse(number: int, row: list[str]) -> Question:
        if len(row) != len(header):
            raise LineProblem(f"{len(row)} cells where the header has {len(header)}")
        record: dict[str, object] = dict(zip(header, row))
        for field in ("parameters", "ground_truth"):
            cell = str(record.get(field) or "").strip()
            if cell:
                record[field] = json_value(cell, f"the {field!r} cell")
        return _question(record, number, graph)
    return QuestionSet(name, "csv", tuple(parse_lines(numbered, unique_ids(parse), source)))


def load_questions(path: str | Path, graph: Graph | None = None) -> QuestionSet:
    """A question file by its extension: .csv, or JSON lines (the project's schema or a CKG query file)."""

    path = Path(path)
    return parse_question_file(read_question_file(path), path.name, graph=graph)


def parse_question_file(data: bytes, file_name: str, *, graph: Graph | None = None) -> QuestionSet:
    """Bytes of a question file named `file_name`: CSV by extension, else JSONL (CKG records detected)."""
    stem = Path(file_name).stem
    if file_name.lower().endswith(".csv"):
        return parse_questions_csv(data, graph=graph, name=stem, source=file_name)
    if looks_like_ckg(text_of(data, file_name)):
        return parse_ckg_questions(data, stem, file_name, graph=graph)
    return parse_questions_jsonl(data, graph=graph, name=stem, source=file_name)


def _record(question: Question) -> dict:
    record: dict[str, object] = {"id": question.id, "question": question.text, "query": question.query.name,
                                 "parameters": {name: list(value) if isinstance(value, tuple) else value
                                                for name, value in question.query.arguments}}
    if question.ground_truth is not None:
        record["ground_truth"] = question.ground_truth
    if question.query_type:
        record["type"] = question.query_type
    if question.hop_depth is not None:
        record["hop_depth"] = question.hop_depth
    record.update(dict(question.metadata))
    return record


def questions_jsonl(question_set: QuestionSet) -> str:
    """The set in the project's JSONL schema (parse_questions_jsonl reads it back to an equal set)."""
    return "".join(json.dumps(_record(question), ensure_ascii=False) + "\n" for question in question_set)


def questions_csv(question_set: QuestionSet) -> str:
    """The set as CSV with JSON cells (parse_questions_csv reads it back to an equal set)."""
    extra = sorted({key for question in question_set for key, _ in question.metadata})
    header = [*FIELDS, *extra]
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for question in question_set:
        record = _record(question)
        cells = []
        for column in header:
            value = record.get(column)
            if column in ("parameters", "ground_truth"):
                cells.append("" if value is None else json.dumps(value, ensure_ascii=False))
            else:
                cells.append("" if value is None else str(value))
        writer.writerow(cells)
    return buffer.getvalue()
