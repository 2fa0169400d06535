"""Which query template a typed question asks for: a few plain-word rules, so the question drives the query.

`template_for_question("If db-identity fails, which services break and who owns them?")` is
`impact_owners`; a question that matches no rule gives None and the chosen template stays.
`parameter_number_spans` finds the numbers that state a parameter ("3 hops", "depth 2"), which seed
matching must not read as node ids (nvidia-jetson has a node "3").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Question text is untrusted: every white-space run and digit run below is possessive, and no two
# neighbouring pieces match the same character, so a failed search is linear (`\s*(?:of)?\s*` was
# quadratic in a long run of spaces).
_HOPS = re.compile(r"\b(\d++)(?:\s++|\s*+-\s*+)hops?\b", re.IGNORECASE)  # "within 3 hops", "3-hop"
# A number followed by a unit of distance or count, or following a parameter's name: a parameter, not a node.
_PARAMETER_NUMBERS = (
    re.compile(r"\b(\d++)(?:\s++|\s*+-\s*+)(?:hops?|levels?|steps?|degrees?|layers?)\b", re.IGNORECASE),
    re.compile(r"\b(?:hops?|depth|distance|radius|k)\s*+(?:=|:|of)?+\s*+(\d++)\b", re.IGNORECASE),
)


@dataclass(frozen=True)
class Rule:
    template: str
    needs: tuple[str, ...]  # every one of these patterns must occur (any case)


RULES = (  # the first rule that matches wins, so the more specific come first
    Rule("t3_prerequisite_path", (r"\bprerequisite", r"\b(?:path|chain)\b")),
    Rule("t2_prerequisites", (r"\bprerequisite",)),
    Rule("shortest_path", (r"\bpath\b",)),
    Rule("impact_owners", (r"\b(?:fail|fails|failed|failure|break|breaks|down|affected|impact)\b",
                           r"\b(?:own|owns|owned|owner|owners|team|teams)\b")),
    Rule("impact", (r"\b(?:fail|fails|failed|failure|break|breaks|down|affected|impact)\b",)),
    Rule("owners_of", (r"\b(?:who owns|owner|owners|owned by)\b",)),
    Rule("typed_neighbours", (r"\b(?:neighbour|neighbours|neighbor|neighbors|connected to|linked to)\b",)),
    Rule("dependencies_within", (r"\b(?:depend|depends|dependencies|reach|reaches|need|needs)\b",)),
)


@dataclass(frozen=True)
class QuestionTemplate:
    template: str
    arguments: tuple[tuple[str, object], ...] = ()  # parameters the words fix (hops), node ones come from seeds


def template_for_question(question: str) -> QuestionTemplate | None:
    """The template the question's words ask for, with a hop count it states, or None."""
    for rule in RULES:
        if all(re.search(pattern, question, re.IGNORECASE) for pattern in rule.needs):
            hops = _HOPS.search(question)
            arguments = (("hops", int(hops.group(1))),) if hops and rule.template == "dependencies_within" else ()
            return QuestionTemplate(rule.template, arguments)
    return None


def parameter_number_spans(question: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of each number in `question` that states a parameter (a hop count, a depth), sorted."""
    spans = {match.span(1) for pattern in _PARAMETER_NUMBERS for match in pattern.finditer(question)}
    return tuple(sorted(spans))
