"""Seeds: the query's anchor nodes, picked by id or matched by name in a question's text.

Name matching is deterministic: node ids and `label` properties are looked up in the question
case-insensitively, as whole words (not glued to a letter, digit or `_` on either side); the
longest name wins an overlap, and equally long names go to the smaller node id. Every accepted
match is reported with the text it matched, so a user can see why a node became a seed. A number that
states a parameter ("in at most 3 hops", core.retrieval.question_templates) is not read as a node id.
"""

from __future__ import annotations

import bisect
import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from core.errors import ParameterError
from core.graph.model import Graph
from core.retrieval.question_templates import parameter_number_spans

NAME_PROPERTIES = ("label",)
MatchedBy = Literal["id", "label"]


@dataclass(frozen=True)
class SeedMatch:
    """One accepted match: `question[start:end]` names node `node_id` (by its id or its label)."""

    text: str
    start: int
    end: int
    node_id: str
    matched_by: MatchedBy
    others: tuple[str, ...] = ()  # further nodes with the same name, not chosen (ties go to the smallest id)


@dataclass(frozen=True)
class Seeds:
    """The seed set S: node ids in the order the question names them (or as given)."""

    node_ids: tuple[str, ...]
    matches: tuple[SeedMatch, ...] = ()
    question: str = ""

    def describe(self) -> str:
        """One line per match: which text matched which node."""
        if not self.matches:
            return "seeds given by id: " + ", ".join(repr(node_id) for node_id in self.node_ids)
        lines = []
        for match in self.matches:
            line = f"{match.text!r} -> node {match.node_id!r} (by {match.matched_by})"
            if match.others:
                line += f"; also the name of {', '.join(repr(other) for other in match.others)}"
            lines.append(line)
        return "\n".join(lines)


def seeds_from_ids(graph: Graph, node_ids: Iterable[str]) -> Seeds:
    """Seeds picked by id; unknown ids raise a ParameterError that suggests close ids."""
    chosen = list(dict.fromkeys(node_ids))
    if not chosen:
        raise ParameterError("no seed node was given", "seeds", "give at least one node id")
    known = graph.node_by_id
    unknown = [node_id for node_id in chosen if node_id not in known]
    if unknown:
        suggestions = difflib.get_close_matches(unknown[0], list(known), n=3)
        hint = f"did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else \
            f"the graph's ids include {', '.join(repr(node.id) for node in graph.nodes[:3])}"
        raise ParameterError(f"{len(unknown)} seed id(s) are not nodes of the graph: "
                             f"{', '.join(repr(node_id) for node_id in unknown[:5])}", "seeds",
                             f"use node ids of this graph; {hint}")
    return Seeds(tuple(chosen))


def seeds_from_question(graph: Graph, question: str, *, name_properties: tuple[str, ...] = NAME_PROPERTIES,
                        match_ids: bool = True) -> Seeds:
    """Seeds named in a question. A question that names no node raises a ParameterError."""
    lowered, origin = _lowered_with_origin(question)
    found: list[tuple[int, int, list[tuple[str, MatchedBy]]]] = []
    for name, owners in _names(graph, name_properties, match_ids).items():
        if name in lowered:
            found.extend((start, start + len(name), owners) for start in _whole_word_starts(lowered, name))
    # Longest first; among equally long names the smallest node id; then the leftmost.
    found.sort(key=lambda item: (-(item[1] - item[0]), item[2][0][0], item[0]))
    # A parameter's number ("3" of "3 hops") names no node; a longer name around it ("Level 3 hops") still can.
    # origin is sorted: the first position of the lowered text that comes from each end (not a linear index())
    numbers = [(bisect.bisect_left(origin, start), bisect.bisect_left(origin, end))
               for start, end in parameter_number_spans(question)]
    lows = [low for low, _ in numbers]  # the spans are disjoint and sorted: the one that may hold a match is found

    def in_a_number(start: int, end: int) -> bool:
        at = bisect.bisect_right(lows, start) - 1
        return at >= 0 and end <= numbers[at][1]
    found = [item for item in found if not in_a_number(item[0], item[1])]
    taken_starts: list[int] = []  # the accepted matches, disjoint, sorted by start (with their ends)
    taken_ends: list[int] = []
    matches = []
    for start, end, owners in found:
        before = bisect.bisect_left(taken_starts, end)  # the accepted matches starting before this one ends
        if before and taken_ends[before - 1] > start:  # the last of them overlaps it (they are disjoint)
            continue
        taken_starts.insert(before, start)
        taken_ends.insert(before, end)
        (node_id, matched_by), others = owners[0], tuple(owner for owner, _ in owners[1:])
        text_start, text_end = origin[start], origin[end]
        matches.append(SeedMatch(question[text_start:text_end], text_start, text_end, node_id, matched_by,
                                 others))
    if not matches:
        raise ParameterError("the question names no node of the graph", f"question {question[:80]!r}",
                             "name a node by its id or label as whole words (any case), or pick seeds by id")
    matches.sort(key=lambda match: match.start)
    node_ids = tuple(dict.fromkeys(match.node_id for match in matches))
    return Seeds(node_ids, tuple(matches), question)


def _names(graph: Graph, name_properties: tuple[str, ...], match_ids: bool
           ) -> dict[str, list[tuple[str, MatchedBy]]]:
    """Lower-cased name -> [(node id, matched by)] sorted by id; blank names are skipped."""
    names: dict[str, list[tuple[str, MatchedBy]]] = {}
    for node in graph.nodes:  # nodes are sorted by id, so each list is too
        candidates: list[tuple[str, MatchedBy]] = [(node.id, "id")] if match_ids else []
        properties = dict(node.properties)
        candidates += [(value, "label") for key in name_properties if isinstance(value := properties.get(key), str)]
        for name, matched_by in candidates:
            key = name.lower()
            if key.strip():
                owners = names.setdefault(key, [])
                if all(owner != node.id for owner, _ in owners):
                    owners.append((node.id, matched_by))
    return names


def _lowered_with_origin(text: str) -> tuple[str, list[int]]:
    """`text` lower-cased, and for each position of the result (and its end) the position in `text`.

    Lower-casing can lengthen a character (İ becomes two), so positions are mapped explicitly.
    """
    parts, origin = [], []
    for index, char in enumerate(text):
        lowered = char.lower()
        parts.append(lowered)
        origin.extend([index] * len(lowered))
    origin.append(len(text))
    return "".join(parts), origin


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _whole_word_starts(text: str, name: str) -> list[int]:
    starts = []
    start = text.find(name)
    while start != -1:
        end = start + len(name)
        before_ok = start == 0 or not _is_word_char(text[start - 1])
        after_ok = end == len(text) or not _is_word_char(text[end])
        if before_ok and after_ok:
            starts.append(start)
        start = text.find(name, start + 1)
    return starts
