"""Teaching sentences built from computed figures, so the text a page shows agrees with its numbers."""

from __future__ import annotations

import pandas as pd

from core.graph import Graph
from core.registry import FORMATS, ORDERINGS, TOKENIZERS
from core.units import graph_units

TIGHT_SHARE = 4  # the walkthrough's tight budget is a quarter of the complete rendering


def tight_budget(graph: Graph, format_name: str, tokenizer: str) -> int:
    """The walkthrough's tight budget: a quarter of the tokens of the format's complete canonical text."""
    text = FORMATS.get(format_name).render(graph, graph_units(graph)).text
    return TOKENIZERS.get(tokenizer).count(text) // TIGHT_SHARE


def orderings_sentence(frame: pd.DataFrame, metric: str = "evidence_survival") -> str:
    """Which real (non-oracle) ordering keeps the most and the least at the first budget where they differ.

    `frame` holds one format under one policy: columns `ordering`, `budget` and the metric.
    """
    table = frame.pivot_table(index="budget", columns="ordering", values=metric, aggfunc="mean").sort_index()
    real = [name for name in table.columns if not ORDERINGS.get(name).oracle]
    word = metric.replace("_", " ")
    for budget, row in table[real].iterrows():
        if row.max() - row.min() > 1e-12:
            best, worst = row.max(), row.min()
            leading = [name for name in real if abs(row[name] - best) <= 1e-12]
            leaders = ", ".join(leading)
            trailers = ", ".join(name for name in real if abs(row[name] - worst) <= 1e-12)
            verb = "keeps" if len(leading) == 1 else "keep"
            return (f"At {int(budget):,} tokens, the first budget of the list where they differ, {leaders} {verb} "
                    f"the most ({word} {best:.0%}) and {trailers} the least ({worst:.0%}).")
    return f"Every real ordering gives the same {word} at every budget of the list."


def comparison_sentence(frame: pd.DataFrame, first: str, second: str, metric: str = "evidence_survival") -> str:
    """`first` against `second` at each budget of `frame` (one format, one policy), in words and figures."""
    table = frame.pivot_table(index="budget", columns="ordering", values=metric, aggfunc="mean").sort_index()
    word = metric.replace("_", " ")
    parts = []
    for budget, row in table.iterrows():
        relation = "ahead of" if row[first] > row[second] else "behind" if row[first] < row[second] else "level with"
        parts.append(f"at {int(budget):,} tokens {first} is {relation} {second} ({row[first]:.0%} vs {row[second]:.0%})")
    return f"{word.capitalize()}: " + "; ".join(parts) + "."
