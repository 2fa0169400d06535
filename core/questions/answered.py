"""The questions of a set that have an answer on the graph, and those left out because theirs is empty.

A question whose gold answer on the full graph is what a context holding nothing gives
(`core.queries.answerable`) is answered by every cut that parses, so it measures nothing: a question set
leaves it out of accuracy, advice and fronts, and counts it in its headline ("8 of 10 questions; 2 have no
answer on this graph, left out"), listing each with the reason. The suite, the advisor's set-wide advice
and the evaluation of a set all measure only `AnsweredSplit.measured`.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import ParameterError
from core.graph.model import Graph
from core.queries.answerable import has_answer, no_answer_reason
from core.questions.model import Question, QuestionSet


@dataclass(frozen=True)
class LeftOut:
    """A question left out of a set's measures, and why (`no_answer_reason`)."""

    question: Question
    reason: str


@dataclass(frozen=True)
class AnsweredSplit:
    """A question set split into the questions that have an answer on the graph and those that have none."""

    question_set: QuestionSet
    answered: tuple[Question, ...]
    left_out: tuple[LeftOut, ...]

    @property
    def headline(self) -> str:
        """'10 questions', or '8 of 10 questions; 2 have no answer on this graph, left out'."""
        return counted_questions(len(self.question_set), len(self.left_out))

    @property
    def measured(self) -> QuestionSet:
        """The questions that have an answer, as a set; ParameterError when none has one."""
        if not self.answered:
            shown = "; ".join(each.reason for each in self.left_out[:3])
            more = f" (and {len(self.left_out) - 3:,} more)" if len(self.left_out) > 3 else ""
            raise ParameterError(
                f"none of the {len(self.question_set):,} questions has an answer on this graph, so the set "
                f"measures nothing: {shown}{more}", f"question set {self.question_set.name!r}",
                "ask questions about nodes that have what the question asks for (another concept, another failed "
                "service, a pair that is connected)")
        if not self.left_out:
            return self.question_set
        return QuestionSet(self.question_set.name, self.question_set.source, self.answered)


def counted_questions(total: int, left_out: int) -> str:
    """The count a set's headline states: every question, or how many are measured and how many left out."""
    if not left_out:
        return f"{total:,} question{'' if total == 1 else 's'}"
    have = "has" if left_out == 1 else "have"
    return f"{total - left_out:,} of {total:,} questions; {left_out:,} {have} no answer on this graph, left out"


def answered_split(graph: Graph, question_set: QuestionSet) -> AnsweredSplit:
    """Each question's gold answer on `graph` against what a context holding nothing gives."""
    answered, left_out = [], []
    for question in question_set:
        gold = question.query.solve(graph)
        if has_answer(question.query, gold):
            answered.append(question)
        else:
            left_out.append(LeftOut(question, no_answer_reason(question.query, gold)))
    return AnsweredSplit(question_set, tuple(answered), tuple(left_out))
