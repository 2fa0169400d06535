"""The contexts an evaluation asks about: the budget engine's sweep, one Context per (cut, query).

`sweep_contexts` runs `core.analysis.sweep.sweep` (every format x ordering x layout x policy x budget, with
its metrics, traversal accuracy included) and takes each cut's text from the same cached, accounted
rendering the sweep cut, so a context is exactly what the sweep measured. The oracle reader must
reproduce the sweep's traversal accuracy on every one of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import pandas as pd

from core.analysis.sweep import Progress, sweep
from core.budget.policies import cut
from core.formats import FORMATS
from core.graph.model import Graph
from core.memory.rendering_cache import DEFAULT_CACHE_BYTES, RenderingCache, rendering_cache
from core.metrics.coverage import seed_region
from core.pipeline import accounted_rendering
from core.prompt.context import Context
from core.queries import Query
from core.questions import QuestionSet, answered_split, question_seeds
from core.retrieval import ORDERINGS
from core.retrieval.ordering import inputs_for
from core.retrieval.seeds import Seeds
from core.specs import RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS


@dataclass(frozen=True)
class SweepOptions:
    """What to cut, as `core.analysis.sweep.sweep` takes it (its defaults, with the seed's shorter budget list)."""

    formats: Sequence[str] | None = None
    orderings: Sequence[str] = ("canonical",)
    layouts: Sequence[str] = ("nodes_then_edges",)
    policies: Sequence[str] = ("record",)
    budgets: Sequence[int] = (512, 1024, 2048, 4096, 8192)
    tokenizer: str = "o200k_base"
    direction: str = "both"
    shuffle_seed: int = 0
    count_grammar: bool = True
    marker: bool = False
    extra: Mapping = field(default_factory=dict)  # passed through to sweep (hops, radius)

    def spec(self, graph: Graph, queries: Sequence[Query], seeds: Seeds | Sequence[str] | None = None) -> SweepSpec:
        """These options as the sweep's spec (names resolved and checked)."""
        return SweepSpec.from_names(graph, queries, seeds=seeds, format_names=self.formats,
                                    ordering_names=self.orderings, layouts=self.layouts, policy_names=self.policies,
                                    budgets=self.budgets, tokenizer_name=self.tokenizer, direction=self.direction,
                                    shuffle_seed=self.shuffle_seed, count_grammar=self.count_grammar,
                                    marker=self.marker, **dict(self.extra))

    def recorded(self) -> dict:
        return {"formats": list(self.formats or FORMATS.names()), "orderings": list(self.orderings),
                "layouts": list(self.layouts), "policies": list(self.policies), "budgets": list(self.budgets),
                "tokenizer": self.tokenizer, "direction": self.direction, "shuffle_seed": self.shuffle_seed,
                "count_grammar": self.count_grammar, "marker": self.marker, **dict(self.extra)}


def sweep_contexts(graph: Graph, queries: Sequence[Query], options: SweepOptions = SweepOptions(), *,
                   seeds: Seeds | Sequence[str] | None = None, progress: Progress | None = None,
                   cache: RenderingCache | None = None) -> tuple[list[Context], pd.DataFrame]:
    """The sweep's rows and one Context per row, in the sweep's order (`cache`: a workbench's renderings)."""
    # The sweep's renderings serve the cuts' texts below.
    cache = cache if cache is not None else rendering_cache(DEFAULT_CACHE_BYTES)
    frame = sweep(options.spec(graph, queries, seeds), progress=progress, cache=cache)
    parameters = frame.attrs["parameters"]
    seed_ids = tuple(parameters["seeds"])
    region = seed_region(graph, seed_ids, options.direction)
    encoder = TOKENIZERS.get(options.tokenizer)
    by_label = {query.label: query for query in queries}
    texts: dict[tuple, str] = {}
    contexts = []
    for row in frame.itertuples(index=False):
        query = by_label[row.query]
        format_, ordering = FORMATS.get(row.format), ORDERINGS.get(row.ordering)
        key = (row.format, row.ordering, row.layout, row.policy, row.budget,
               row.query if ordering.per_query else None)
        if key not in texts:
            inputs = inputs_for(ordering, seed_ids, evidence=query.solve(graph).evidence,
                                question=parameters["queries"][row.query], shuffle_seed=options.shuffle_seed,
                                direction=options.direction)
            # The sweep cached this accounting: the same key gives the same rendering, not a new one.
            spec = RenderingSpec(graph, format_, ordering, row.layout, inputs, encoder, parameters.get("radius"))
            accounting = accounted_rendering(spec, region=region, cache=cache)
            texts[key] = cut(accounting, format_, row.policy, int(row.budget), count_grammar=options.count_grammar,
                             marker=options.marker).text
        contexts.append(Context(query, row.format, row.ordering, row.policy, int(row.budget), texts[key],
                                int(row.tokens), float(row.traversal_accuracy), row.layout,
                                bool(row.evidence_complete)))
    return contexts, frame


def question_contexts(graph: Graph, questions: QuestionSet, options: SweepOptions = SweepOptions(), *,
                      seeding: str = "annotations", cache: RenderingCache | None = None) -> list[Context]:
    """One Context per (question, cut): each question's sweep from its own seeds, labelled with its id, type and
    hop depth. A question with no seeds that way is cut from the query's own nodes, as `sweep` does without seeds.
    A question whose answer on the graph is empty is left out, as the suite leaves it out
    (`core.questions.answered_split` lists them with the reason); ParameterError when no question has an answer."""
    cache = cache if cache is not None else rendering_cache(DEFAULT_CACHE_BYTES)  # shared by the questions' sweeps
    contexts: list[Context] = []
    for question in answered_split(graph, questions).measured:
        seeds = question_seeds(graph, question, seeding).node_ids or None
        found, _ = sweep_contexts(graph, [question.query], options, seeds=seeds, cache=cache)
        contexts.extend(replace(context, question_id=question.id, query_type=question.type_label,
                                hop_depth=question.hop_depth) for context in found)
    return contexts
