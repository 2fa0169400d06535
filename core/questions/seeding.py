"""A question's seeds, two ways: from its text (name matching, as a deployed retriever would) and from
its record's annotations (the oracle: the node ids the query is bound to). Both are reported; a
question whose text names no node, or whose query names none, has no seeds that way and is listed.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import ParameterError
from core.graph.model import Graph
from core.questions.model import Question
from core.retrieval.seeds import seeds_from_question

SEEDINGS = ("text", "annotations")


@dataclass(frozen=True)
class QuestionSeeds:
    question_id: str
    seeding: str  # "text" or "annotations"
    node_ids: tuple[str, ...]  # () when that way finds no node
    matched: str  # how they were found, in words

    @property
    def found(self) -> bool:
        return bool(self.node_ids)


def question_seeds(graph: Graph, question: Question, seeding: str) -> QuestionSeeds:
    """The question's seeds by `seeding`; never raises for a question naming no node."""
    if seeding == "annotations":
        present = tuple(node for node in question.annotation_seeds if node in graph.node_by_id)
        return QuestionSeeds(question.id, seeding, present,
                             "annotated: " + ", ".join(present) if present else "the query names no node")
    if seeding != "text":
        raise ParameterError(f"unknown seeding {seeding!r}", "seeding", f"use one of: {', '.join(SEEDINGS)}")
    try:
        seeds = seeds_from_question(graph, question.text)
    except ParameterError:
        return QuestionSeeds(question.id, seeding, (), "the text names no node")
    return QuestionSeeds(question.id, seeding, seeds.node_ids,
                         "; ".join(f"{match.text!r} -> {match.node_id}" for match in seeds.matches))
