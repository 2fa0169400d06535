"""Our solver's answer against a file's recorded ground truth: match, tie, differs, or nothing recorded.

Most templates answer with a sorted list (a set), so a recorded list matches when it holds the same
labels in any order. T1 (label, taxonomy) and chains (T3, shortest path) are ordered. A chain that
differs only by a tie (the recorded chain is another valid chain of the same length between the
same ends) is a `tie`: both are correct, the generator broke the tie another way. Every other
difference is `differs`, shown with both answers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from core.graph.model import Graph
from core.queries import Answer, Solution
from core.queries.model import label_of
from core.questions.model import Question

ORDERED_ANSWERS = frozenset({"t1_entity", "t3_prerequisite_path", "shortest_path"})
CHAINS = frozenset({"t3_prerequisite_path", "shortest_path"})
STATUSES = ("match", "tie", "differs", "not recorded")


@dataclass(frozen=True)
class GroundTruthCheck:
    question_id: str
    status: str  # one of STATUSES
    detail: str  # what differs, in words ("" for a match)


def check_ground_truth(question: Question, graph: Graph, solution: Solution | None = None) -> GroundTruthCheck:
    """Compare the gold answer on `graph` with the question's recorded ground truth."""
    answer = (solution or question.query.solve(graph)).answer
    recorded = question.ground_truth
    if recorded is None:
        return GroundTruthCheck(question.id, "not recorded", "")
    if _same(question.query.name, answer, recorded):
        return GroundTruthCheck(question.id, "match", "")
    shown = f"ours {_text(answer)}, recorded {_text(recorded)}"
    if question.query.name in CHAINS and _is_tie(question, graph, answer, recorded):
        return GroundTruthCheck(question.id, "tie", f"two equally short chains: {shown}")
    return GroundTruthCheck(question.id, "differs", shown)


def _same(template: str, answer: Answer, recorded: Answer) -> bool:
    if answer == recorded:
        return True
    if template in ORDERED_ANSWERS or not isinstance(answer, list) or not isinstance(recorded, list):
        return False
    try:
        return sorted(set(answer)) == sorted(set(recorded))
    except TypeError:  # unhashable or mixed items: only equality counts
        return False


def _is_tie(question: Question, graph: Graph, answer: Answer, recorded: Answer) -> bool:
    """Both are chains of the same length with the same ends, and the recorded one walks real edges."""
    if not (isinstance(answer, list) and isinstance(recorded, list) and answer and len(answer) == len(recorded)):
        return False
    if answer[0] != recorded[0] or answer[-1] != recorded[-1]:
        return False
    relation = question.query.all_arguments.get("relation")
    by_label: dict[str, set[str]] = {}
    for node in graph.nodes:
        by_label.setdefault(label_of(graph, node.id), set()).add(node.id)
    steps = {(edge.source, edge.target) for edge in graph.edges if relation is None or edge.relation == relation}
    current = by_label.get(recorded[0], set())
    for label in recorded[1:]:
        current = {target for target in by_label.get(label, set()) if any((s, target) in steps for s in current)}
    return bool(current)


def _text(value: Answer) -> str:
    return json.dumps(value, ensure_ascii=False)
