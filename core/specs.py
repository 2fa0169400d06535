"""Specs: names become objects once, at the edge. A frozen spec holds what it names already resolved, and its key.

`RenderingSpec` is one rendering (graph, format, ordering, layout, ordering inputs, tokenizer) with the one
cache key its accounting is kept under. `SweepSpec` is a sweep's whole question (queries, seeds, the grid of
formats, orderings, layouts, policies and budgets, tokenizer and the metric settings); it replaces the
keyword list a sweep once took. Both are built from names by `from_names`, which checks every name
against its registry and every number, so a mistake is refused before any work starts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from core.budget import DEFAULT_POLICIES
from core.budget.policies import check_policy
from core.budget.sections import DEFAULT_SECTIONS, Sections
from core.errors import ParameterError
from core.formats import FORMATS
from core.formats.base import Format
from core.graph.hops import check_direction
from core.graph.model import Graph
from core.queries import Query
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS, Ordering, OrderingInputs, check_layout, inputs_for
from core.retrieval.seeds import Seeds
from core.tokens import MODELS, TOKENIZERS
from core.tokens.protocol import Tokenizer

DEFAULT_BUDGETS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536)
DEFAULT_TOKENIZER_NAME = "o200k_base"


@dataclass(frozen=True)
class RenderingSpec:
    """One rendering: the graph (or its region within `radius` hops of the seeds) in a format and an order."""

    graph: Graph
    format: Format
    ordering: Ordering
    layout: str
    inputs: OrderingInputs
    tokenizer: Tokenizer
    radius: int | None = None

    @classmethod
    def from_names(cls, graph: Graph, format_name: str, *, ordering_name: str = "canonical",
                   layout: str = "nodes_then_edges", tokenizer_name: str = DEFAULT_TOKENIZER_NAME,
                   seeds: Sequence[str] = (), evidence: frozenset[str] = frozenset(), question: str = "",
                   shuffle_seed: int = 0, direction: str = "both", radius: int | None = None) -> RenderingSpec:
        ordering = ORDERINGS.get(ordering_name)
        inputs = inputs_for(ordering, seeds, evidence=evidence, question=question, shuffle_seed=shuffle_seed,
                            direction=check_direction(direction))
        return cls(graph, FORMATS.get(format_name), ordering, check_layout(layout), inputs,
                   TOKENIZERS.get(tokenizer_name), radius)

    @property
    def key(self) -> tuple:
        """What the rendering depends on, and only that: equal keys mean equal texts and equal counts."""
        inputs, ordering, format_ = self.inputs, self.ordering, self.format
        return (self.graph.content_key, format_.name, ordering.name, self.layout, self.tokenizer.name, self.radius,
                inputs.direction,
                # a format that prints hop levels changes with the seeds even under an order that ignores them
                inputs.seeds if ordering.uses_seeds or format_.uses_hops or self.radius is not None else (),
                inputs.shuffle_seed if ordering.uses_shuffle_seed else None,
                inputs.evidence if ordering.uses_evidence else None,
                inputs.question if ordering.uses_question else None)

    @property
    def digest(self) -> str:
        """The key as a short stable text (evidence sorted), for stores that key by strings."""
        parts = [sorted(part) if isinstance(part, frozenset) else part for part in self.key]
        return hashlib.sha256(json.dumps(parts, default=list).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class SweepSpec:
    """Every (query, format, ordering, layout, policy, budget) cut of one graph to measure.

    `seeds` default to the nodes the queries name. `hops` is the k of candidate recall and D_k(S);
    `radius`, when given, renders only U_radius(S) instead of the whole graph. `reader` is the model whose
    whole request the rows count (a model family or `gguf:PATH`); None: the family the tokenizer is for.
    """

    graph: Graph
    queries: tuple[tuple[str, Query], ...]
    seeds: tuple[str, ...]
    formats: tuple[Format, ...]
    orderings: tuple[Ordering, ...]
    layouts: tuple[str, ...]
    policies: tuple[str, ...]
    budgets: tuple[int, ...]
    tokenizer: Tokenizer
    hops: int = 2
    direction: str = "both"
    radius: int | None = None
    shuffle_seed: int = 0
    count_grammar: bool = True
    marker: bool = False
    sections: Sections = DEFAULT_SECTIONS
    reader: str | None = None

    @classmethod
    def from_names(cls, graph: Graph, queries: Mapping[str, Query] | Sequence[Query], *,
                   seeds: Seeds | Sequence[str] | None = None, format_names: Sequence[str] | None = None,
                   ordering_names: Sequence[str] | None = None, layouts: Sequence[str] = LAYOUTS,
                   policy_names: Sequence[str] = DEFAULT_POLICIES, budgets: Iterable[int] = DEFAULT_BUDGETS,
                   tokenizer_name: str = DEFAULT_TOKENIZER_NAME, hops: int = 2, direction: str = "both",
                   radius: int | None = None, shuffle_seed: int = 0, count_grammar: bool = True,
                   marker: bool = False, sections: Sections = DEFAULT_SECTIONS,
                   reader_name: str | None = None) -> SweepSpec:
        """The spec with every name resolved (formats and orderings default to every registered one)."""
        named = named_queries(queries)
        orderings = tuple(ORDERINGS.get(name) for name in (ordering_names or ORDERINGS.names()))
        seed_ids = _seed_ids(seeds, named.values())
        if not seed_ids and (radius is not None or any(ordering.uses_seeds for ordering in orderings)):
            raise ParameterError("no seeds: the seed orderings, D_k(S) and the radius need them", "seeds",
                                 "pick seed nodes by id, name them in a question, or use queries that name nodes")
        return cls(graph, tuple(named.items()), seed_ids,
                   tuple(FORMATS.get(name) for name in (format_names or FORMATS.names())), orderings,
                   tuple(check_layout(layout) for layout in layouts),
                   tuple(check_policy(policy) for policy in policy_names), checked_budgets(budgets),
                   TOKENIZERS.get(tokenizer_name), hops, check_direction(direction), radius, shuffle_seed,
                   count_grammar, marker, sections, _checked_reader(reader_name))

    @property
    def named_queries(self) -> dict[str, Query]:
        return dict(self.queries)

    def rendering(self, format_: Format, ordering: Ordering, layout: str, query: Query | None = None) -> RenderingSpec:
        """One rendering of this sweep (`query` gives the evidence and question an ordering may read)."""
        gold = query.solve(self.graph) if query is not None and ordering.uses_evidence else None
        inputs = inputs_for(ordering, self.seeds, evidence=gold.evidence if gold is not None else frozenset(),
                            question=query.question_on(self.graph) if query is not None else "",
                            shuffle_seed=self.shuffle_seed, direction=self.direction)
        return RenderingSpec(self.graph, format_, ordering, layout, inputs, self.tokenizer, self.radius)


def _checked_reader(name: str | None) -> str | None:
    """A registered model family's name or `gguf:PATH`, as given; None stays None."""
    if name is not None and not name.startswith("gguf:"):
        MODELS.get(name)  # an unknown family is refused with the known names
    return name


def checked_budgets(budgets: Iterable[int]) -> tuple[int, ...]:
    """Budgets as whole numbers of tokens, 0 or more; at least one."""
    checked = []
    for budget in budgets:
        if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 0:
            raise ParameterError(f"budget {budget!r} is not a whole number of tokens", "budgets",
                                 "give budgets as whole numbers of tokens, 0 or more")
        checked.append(int(budget))
    if not checked:
        raise ParameterError("no budget was given", "budgets", "give at least one budget, e.g. 512,1024,4096")
    return tuple(checked)


def named_queries(queries: Mapping[str, Query] | Sequence[Query]) -> dict[str, Query]:
    """Queries by name: a mapping as given, a sequence under each query's label; at least one."""
    named = dict(queries) if isinstance(queries, Mapping) else {query.label: query for query in queries}
    if not named:
        raise ParameterError("a sweep needs at least one query", "queries", "pick a query template")
    return named


def _seed_ids(seeds: Seeds | Sequence[str] | None, queries: Iterable[Query]) -> tuple[str, ...]:
    if isinstance(seeds, Seeds):
        return seeds.node_ids
    if seeds:
        return tuple(dict.fromkeys(seeds))
    return tuple(dict.fromkeys(seed for query in queries for seed in query.seeds))
