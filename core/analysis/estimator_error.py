"""How wrong each token estimator is on each format's complete text, against the exact count of each tokenizer.

Per format (the complete text of the graph, canonical order, nodes then edges: the text the benchmark's tokens
column counts, `complete_text_specs`) and tokenizer: its characters, words, exact tokens and, per estimator of
`core.tokens.estimators`, the estimate and its signed error (`estimator_error` of its accounted rendering: the
workbench's, so a page that shows the formats has the texts and counts already).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.formats import FORMATS
from core.graph.model import Graph
from core.specs import DEFAULT_TOKENIZER_NAME, RenderingSpec
from core.tokens.estimators import ESTIMATOR_NAMES, ESTIMATORS, percent, signed_error
from core.tokens.prefix_tokens import PrefixTokens

ORDERING = "canonical"
LAYOUT = "nodes_then_edges"


@dataclass(frozen=True)
class EstimatorError:
    """One format's complete text under one tokenizer: its sizes, exact tokens and each estimator's estimate."""

    format_name: str
    tokenizer_name: str
    characters: int
    words: int
    exact: int
    estimates: tuple[int, ...]  # one per estimator, in ESTIMATORS order

    @property
    def errors(self) -> tuple[float | None, ...]:
        return tuple(signed_error(estimate, self.exact) for estimate in self.estimates)

    def as_dict(self) -> dict:
        return {"format": self.format_name, "tokenizer": self.tokenizer_name, "characters": self.characters,
                "words": self.words, "exact": self.exact,
                "estimators": {name: {"estimate": estimate, "error_percent": percent(error)}
                               for name, estimate, error in zip(ESTIMATOR_NAMES, self.estimates, self.errors)}}


def complete_text_specs(graph: Graph, format_names: Sequence[str] | None = None,
                        tokenizer_names: Sequence[str] = (DEFAULT_TOKENIZER_NAME,)) -> list[RenderingSpec]:
    """The complete text of each format (default: every registered one) under each tokenizer, tokenizer by
    tokenizer: canonical order, nodes then edges, no seeds (the benchmark's tokens column)."""
    return [RenderingSpec.from_names(graph, format_name, ordering_name=ORDERING, layout=LAYOUT,
                                     tokenizer_name=tokenizer_name)
            for tokenizer_name in tokenizer_names for format_name in (format_names or FORMATS.names())]


def estimator_error(accounting: PrefixTokens) -> EstimatorError:
    """The estimators beside the exact count of one accounted rendering's complete text."""
    text = accounting.rendering.text
    return EstimatorError(accounting.rendering.format_name, accounting.tokenizer.name, len(text), len(text.split()),
                          accounting.total, tuple(estimator.estimate(text) for estimator in ESTIMATORS))


def error_rows(errors: Sequence[EstimatorError]) -> dict[str, list]:
    """Columns for a table: one row per (tokenizer, format); each estimator's signed error as a fraction."""
    columns: dict[str, list] = {
        "format": [item.format_name for item in errors],
        "tokenizer": [item.tokenizer_name for item in errors],
        "characters": [item.characters for item in errors],
        "words": [item.words for item in errors],
        "exact tokens": [item.exact for item in errors],
    }
    for index, name in enumerate(ESTIMATOR_NAMES):
        columns[f"{name} error"] = [item.errors[index] for item in errors]
    return columns
