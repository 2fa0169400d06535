"""The question-set model: questions bound to a query template, with optional ground truth and metadata."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from core.errors import ParameterError
from core.queries import Answer, Query


@dataclass(frozen=True)
class Question:
    """One question: its id and text, the query it asks (template + parameters), and what is known about it.

    `ground_truth` is the answer a benchmark file recorded (None when it recorded none); `query_type`
    and `hop_depth` are the benchmark's own labels (CKG: T1_entity ... and 0-5); anything else the
    file held is kept as text in `metadata`, sorted by key.
    """

    id: str
    text: str
    query: Query
    ground_truth: Answer | None = None
    query_type: str = ""
    hop_depth: int | None = None
    metadata: tuple[tuple[str, str], ...] = ()

    @property
    def annotation_seeds(self) -> tuple[str, ...]:
        """The node ids the record's annotations name (the oracle's seeds)."""
        return self.query.seeds

    @property
    def type_label(self) -> str:
        """The query type, or the template's name when the file gave none."""
        return self.query_type or self.query.name


@dataclass(frozen=True)
class QuestionSet:
    """Questions with unique ids, in file order, and where they came from."""

    name: str
    source: str  # "ckg", "jsonl", "csv" or "generated: <spec>"
    questions: tuple[Question, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.questions:
            raise ParameterError("a question set needs at least one question", f"question set {self.name!r}",
                                 "load a file with one question per line, or generate some")
        seen: set[str] = set()
        for question in self.questions:
            if question.id in seen:
                raise ParameterError(f"question id {question.id!r} appears twice", f"question set {self.name!r}",
                                     "give every question its own id")
            seen.add(question.id)

    def __iter__(self) -> Iterator[Question]:
        return iter(self.questions)

    def __len__(self) -> int:
        return len(self.questions)

    def by_id(self, question_id: str) -> Question:
        for question in self.questions:
            if question.id == question_id:
                return question
        raise ParameterError(f"no question with id {question_id!r}", f"question set {self.name!r}",
                             "use an id of this set")

    def subset(self, ids: Iterable[str]) -> QuestionSet:
        wanted = set(ids)
        return QuestionSet(self.name, self.source, tuple(q for q in self.questions if q.id in wanted))
