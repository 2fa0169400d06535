"""The sweep behind the dashboard's analysis pages: one query, each format in a layout it can show.

Built on the budget engine (`core.analysis.sweep`); the pages only draw what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from core.analysis.sweep import Progress, sweep
from core.budget.policies import POLICIES
from core.formats import FORMATS
from core.graph.model import Graph
from core.memory.rendering_cache import RenderingCache
from core.queries import Query
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, inputs_for, layouts_for
from core.retrieval.seeds import Seeds
from core.specs import SweepSpec

DEFAULT_BUDGET_LIST = (256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536)


def effective_layout(format_name: str, layout: str) -> str:
    """The layout a format is drawn in: the chosen one when it can show it, else nodes then edges."""
    return layout if layout in layouts_for(FORMATS.get(format_name)) else "nodes_then_edges"


def budget_sweep(graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], orderings: Sequence[str],
                 layout: str, policies: Sequence[str] = POLICIES, budgets: Sequence[int] = DEFAULT_BUDGET_LIST,
                 tokenizer: str = "o200k_base", progress: Progress | None = None, workers: int = 1,
                 cache: RenderingCache | None = None) -> pd.DataFrame:
    """The sweep behind the analysis pages: each format in its effective layout, one query, one row per cut.

    In this process by default (`workers=1`): a page's sweep is a few renderings, where a pool of
    processes would cost more to start than it saves, and `cache` (the session workbench's) stays warm for redraws.
    """
    groups: dict[str, list[str]] = {}
    for name in formats:
        groups.setdefault(effective_layout(name, layout), []).append(name)
    done = 0
    total = len(formats) * len(orderings) * len(policies) * len(budgets)

    def report(count: int, _: int, what: str) -> None:
        if progress is not None:
            progress(done + count, total, what)

    frames = []
    for group_layout, names in groups.items():
        spec = SweepSpec.from_names(graph, [query], seeds=seeds, format_names=names, ordering_names=orderings,
                                    layouts=(group_layout,), policy_names=policies, budgets=budgets,
                                    tokenizer_name=tokenizer)
        frames.append(sweep(spec, progress=report, workers=workers, cache=cache))
        done += len(frames[-1])
    frame = pd.concat(frames, ignore_index=True)
    frame.attrs = frames[0].attrs
    return frame


def ordering_inputs(graph: Graph, query: Query, seeds: Seeds, ordering: str) -> OrderingInputs:
    """What the ordering looks at: the seeds, and the query's evidence when the ordering uses it."""
    ordering_ = ORDERINGS.get(ordering)
    return inputs_for(ordering_, seeds.node_ids, evidence=query.solve(graph).evidence if ordering_.uses_evidence
                      else frozenset(), question=query.question_on(graph))
