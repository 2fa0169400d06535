"""Side by side: the same renderings under several tokenizers, and where the cheapest format changes.

`tokens_per_format` renders each format once (canonical order) and counts it with every tokenizer;
`format_ranks` ranks the formats per tokenizer (1 = fewest tokens); `winner_sentence` says in one
sentence which lossless format is cheapest under which tokenizers. `sweep_over_tokenizers` runs
the same sweep once per tokenizer into one frame with a `tokenizer` column, and
`pareto_per_tokenizer` applies the across-budget Pareto rule within each tokenizer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pandas as pd

from core.analysis.pareto import ACROSS_BUDGET_GROUPS, dominance_across_budgets
from core.analysis.sweep import sweep
from core.formats import FORMATS
from core.graph.model import Graph
from core.graph.units import graph_units
from core.specs import SweepSpec
from core.tokens import TOKENIZERS


def tokens_per_format(graph: Graph, tokenizers: Sequence[str] | None = None,
                      formats: Sequence[str] | None = None) -> pd.DataFrame:
    """Exact tokens of each format's complete text (rows) under each tokenizer (columns)."""
    tokenizer_names = list(tokenizers or TOKENIZERS.names())
    units = graph_units(graph)
    names = list(formats or FORMATS.names())
    counts = {}
    for name in names:  # one complete text alive at a time: on the largest graphs each is tens of MB
        text = FORMATS.get(name).render(graph, units).text
        counts[name] = [TOKENIZERS.get(tokenizer).count(text) for tokenizer in tokenizer_names]
        del text
    return pd.DataFrame.from_dict(counts, orient="index", columns=tokenizer_names).rename_axis("format")


def tokens_side_by_side(graph: Graph, tokenizers: Sequence[str], formats: Sequence[str] | None = None
                        ) -> pd.DataFrame:
    """`tokens_per_format`, plus the second tokenizer's difference from and ratio to the first."""
    table = tokens_per_format(graph, tokenizers, formats)
    if len(tokenizers) > 1:
        first, second = tokenizers[0], tokenizers[1]
        table[f"{second} - {first}"] = table[second] - table[first]
        table[f"{second} / {first}"] = table[second] / table[first].where(table[first] > 0)
    return table


def format_ranks(table: pd.DataFrame) -> pd.DataFrame:
    """Per tokenizer (column), each format's place by tokens: 1 is the cheapest; ties share a place."""
    return table.rank(axis=0, method="min").astype(int)


def cheapest_lossless(table: pd.DataFrame) -> dict[str, str]:
    """tokenizer -> the lossless format with the fewest tokens (first in registry order on a tie)."""
    lossless = table.loc[[name for name in table.index if FORMATS.get(name).lossless]]
    return {tokenizer: str(lossless[tokenizer].idxmin()) for tokenizer in table.columns} if len(lossless) else {}


def winner_sentence(table: pd.DataFrame) -> str:
    """One sentence from the table: the cheapest lossless format per tokenizer, and where it changes."""
    winners = cheapest_lossless(table)
    if not winners:
        return "No lossless format is in the comparison."
    groups: dict[str, list[str]] = {}
    for tokenizer, name in winners.items():
        groups.setdefault(name, []).append(tokenizer)
    if len(groups) == 1:
        (name, tokenizers), = groups.items()
        tokens = ", ".join(f"{table.loc[name, tokenizer]:,}" for tokenizer in tokenizers)
        return (f"The cheapest lossless format is {name} under every tokenizer compared "
                f"({', '.join(tokenizers)}: {tokens} tokens).")
    parts = []
    for name, tokenizers in groups.items():
        others = [other for other in groups if other != name]
        tokenizer = tokenizers[0]
        runner = min(others, key=lambda other: table.loc[other, tokenizer])
        saving = 1 - table.loc[name, tokenizer] / table.loc[runner, tokenizer] if table.loc[runner, tokenizer] else 0
        parts.append(f"{name} under {', '.join(tokenizers)} ({table.loc[name, tokenizer]:,} tokens under "
                     f"{tokenizer}, {saving:.1%} fewer than {runner})")
    return "The cheapest lossless format changes with the tokenizer: " + "; ".join(parts) + "."


def sweep_over_tokenizers(spec: SweepSpec, tokenizer_names: Sequence[str], **options) -> pd.DataFrame:
    """`core.analysis.sweep.sweep` of the spec once per tokenizer, stacked: one frame whose `tokenizer` column tells
    them apart (`options` are the sweep's)."""
    frames = [sweep(replace(spec, tokenizer=TOKENIZERS.get(name)), **options) for name in tokenizer_names]
    frame = pd.concat(frames, ignore_index=True)
    frame.attrs["parameters"] = {**frames[0].attrs["parameters"], "tokenizer": list(tokenizer_names)}
    return frame


def pareto_per_tokenizer(frame: pd.DataFrame, accuracy: str = "traversal_accuracy") -> pd.DataFrame:
    """The across-budget Pareto rule applied within each tokenizer: a format is only ever dominated
    by another format counted with the same tokenizer."""
    return dominance_across_budgets(frame, group_by=("tokenizer", *ACROSS_BUDGET_GROUPS), accuracy=accuracy)
