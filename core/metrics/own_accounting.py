"""The accounting a cut's own document is counted in: the rendering's for a prefix cut, its own for a selecting one.

A prefix cut (raw, record) keeps the first records of the accounted rendering, so that rendering's exact
prefix counts measure it. A selecting policy (sections, density, knapsack, connected) renders its kept units
again: its document is the complete text of its own rendering, accounted once here and kept on that
rendering, so the placement columns and the seed share of one cut share one accounting.
"""

from __future__ import annotations

from core.budget.policies import Cut
from core.graph.derived import derived
from core.tokens.prefix_tokens import PrefixTokens, prefix_tokens


def own_accounting(cut: Cut, accounting: PrefixTokens) -> tuple[PrefixTokens, int]:
    """The accounting the cut's document is a prefix of, and how many of its records the cut keeps."""
    if cut.empty:
        return accounting, 0
    rendering = cut.rendering
    if cut.selection and rendering is not None:
        tokenizer = accounting.tokenizer
        own = derived(rendering, ("accounting", tokenizer.name), lambda: prefix_tokens(rendering, tokenizer))
        return own, own.records
    return accounting, cut.records_kept
