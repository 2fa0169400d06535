"""The smallest budget that answers, defined once: the exact token count from which a choice answers the query.

For one rendering (a format, ordering and layout) and one query, under the record policy (whole records while the
next fits, no marker line): the record policy at budget B keeps the longest prefix whose every shorter prefix fits
(`counts[j] + grammar <= B` for each j up to it), so the prefix of k records is kept from the budget
`needed(k) = max(counts[:k + 1]) + grammar` on. The answering budget is `needed(k*)` for the shortest prefix k*
from which every longer prefix, up to the largest swept budget's, answers: one exact figure read from the cut's own
prefix counts, not from the swept grid, which only brackets it.

A longer prefix holds more of the graph, so once a prefix answers the longer ones do (a prefix that holds the whole
evidence gives the gold answer, or one of its ties); the search halves the records between the largest swept
budget that does not answer and the smallest from which every swept budget does.

Over several questions the same rule gives the budget from which a share of them is answered: the smallest
budget at which that many questions' answering budgets have been reached (`reach_of`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from core.graph.kept import positions_for
from core.graph.model import Graph
from core.metrics.cut_metrics import DecodedCut, answers
from core.queries import Query, Solution
from core.tokens.prefix_tokens import PrefixTokens


def needed_budgets(counts: np.ndarray, grammar: int) -> np.ndarray:
    """`needed[k]`: the smallest budget at which the record policy keeps at least k records."""
    return np.maximum.accumulate(counts) + grammar


def answering_budget(needed: np.ndarray, swept: Sequence[tuple[int, int, bool]],
                     answers: Callable[[int], bool]) -> int | None:
    """The exact budget from which the record policy's cuts answer, or None when the largest swept one does not.

    `swept`: (budget, records kept, answered) of the record cuts the sweep measured, any order; `answers(k)`
    whether the prefix of k records answers. Only the records between the last swept cut that does not answer
    and the first from which all do are searched.
    """
    ordered = sorted(swept)
    if not ordered or not ordered[-1][2]:
        return None
    first = len(ordered) - 1
    while first > 0 and ordered[first - 1][2]:
        first -= 1
    low = ordered[first - 1][1] if first > 0 else -1  # a prefix known not to answer (-1: none known)
    high = ordered[first][1]  # a prefix known to answer
    while high - low > 1:
        middle = (low + high) // 2
        if answers(middle):
            high = middle
        else:
            low = middle
    return int(needed[high])


def reach_of(answering: Sequence[int | None], accuracy: float) -> int | None:
    """The smallest budget at which `accuracy` (a share) of the questions are answered, each question from its
    answering budget on (None: not answered at any swept budget); None when that share is never reached."""
    if not answering:
        return None
    wanted = math.ceil(accuracy * len(answering) - 1e-9)
    if wanted <= 0:
        return None  # an accuracy of 0 is reached by any budget: no budget "answers"
    reached = sorted(budget for budget in answering if budget is not None)
    return reached[wanted - 1] if len(reached) >= wanted else None


def rendering_answering_budget(accounting: PrefixTokens, graph: Graph, query: Query, gold: Solution,
                               grammar: int) -> int | None:
    """The record policy's exact answering budget of one lossless rendering on its own (no sweep to bracket it):
    halving over all its records; None when even the whole rendering does not answer."""
    positions = positions_for(accounting.rendering, graph, accounting.record_of_key)

    def holds(records: int) -> bool:
        return answers(query, gold, DecodedCut(positions.kept(records)))
    needed = needed_budgets(accounting.counts, grammar)
    return answering_budget(needed, [(int(needed[-1]), accounting.records, holds(accounting.records))], holds)
