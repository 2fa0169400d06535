"""A question's slot values read back from a template's text ("If {failed} fails, ..."), without a regex.

The values are those the regex `literal (?P<slot>.*?) literal ... \\Z` (DOTALL) would give: each slot
takes the shortest text after which the rest of the template can still match to the end. That regex
backtracks through every split of the question at its literals (polynomial in the question's length,
to the power of the slots), and questions come from users' files. Here the literal occurrences are
found once with `str.find` and the splits that can still reach the end are marked from the back,
so the cost is the number of occurrences times a binary search.
"""

from __future__ import annotations

import bisect
import string


def template_pieces(template_text: str) -> tuple[list[str], list[str]]:
    """The literals around the slots (one more than the slots) and the slots' names, in order."""
    literals, names = [""], []
    for literal, name, _, _ in string.Formatter().parse(template_text):
        literals[-1] += literal
        if name is not None:
            names.append(name)
            literals.append("")
    return literals, names


def slot_values(template_text: str, question: str) -> dict[str, str] | None:
    """Each slot's text, or None when the question is not the template with some text in each slot."""
    literals, names = template_pieces(template_text)
    if not names:
        return {} if question == literals[0] else None
    first, last = literals[0], literals[-1]
    if not question.startswith(first) or len(question) < len(first) + len(last) or not question.endswith(last):
        return None
    start, end = len(first), len(question) - len(last)
    # reachable[i]: sorted starts of the occurrences of middle literal i (between slot i and slot i + 1)
    # from which the remaining literals can still be placed in order, ending where the last literal begins.
    middle = literals[1:-1]
    reachable: list[list[int]] = [[] for _ in middle]
    limit = end  # the next literal's latest usable start, from the back
    for index in range(len(middle) - 1, -1, -1):
        literal = middle[index]
        usable = [position for position in _occurrences(question, literal, start, end)
                  if position + len(literal) <= limit]
        if not usable:
            return None
        reachable[index] = usable
        limit = usable[-1]
    values, position = {}, start
    for index, name in enumerate(names[:-1]):
        literal, starts = middle[index], reachable[index]
        found = bisect.bisect_left(starts, position)
        if found == len(starts):
            return None
        values[name] = question[position:starts[found]]
        position = starts[found] + len(literal)
    if position > end:
        return None
    values[names[-1]] = question[position:end]
    return values


def _occurrences(text: str, literal: str, start: int, end: int) -> list[int]:
    """Every start of `literal` inside text[start:end], overlapping ones included."""
    found, position = [], text.find(literal, start, end)
    while position >= 0:
        found.append(position)
        position = text.find(literal, position + 1, end)
    return found
