"""The cut reports of a sweep: for every (format, ordering, layout, policy, budget) cut, `core.budget.cut_report`.

The renderings are the sweep's own (`accounted_rendering` of the same specs, served from `cache` when
the sweep's cache is given); each is cut again, which costs little beside rendering and measuring.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.budget import DEFAULT_POLICIES
from core.budget.cut_report import cut_report
from core.budget.policies import check_policy, cut
from core.budget.sections import DEFAULT_SECTIONS, Sections
from core.formats import FORMATS
from core.memory.rendering_cache import RenderingCache
from core.metrics.coverage import seed_region
from core.pipeline import accounted_rendering
from core.queries import Query
from core.retrieval import ORDERINGS
from core.retrieval.ordering import LAYOUTS, inputs_for, layouts_for
from core.specs import DEFAULT_BUDGETS, RenderingSpec
from core.tokens import TOKENIZERS


def sweep_cut_reports(graph, queries: Sequence[Query], *, seeds: Sequence[str] = (),
                      formats: Sequence[str] | None = None, orderings: Sequence[str] | None = None,
                      layouts: Sequence[str] = LAYOUTS, policies: Sequence[str] = DEFAULT_POLICIES,
                      budgets: Iterable[int] = DEFAULT_BUDGETS, tokenizer: str = "o200k_base",
                      direction: str = "both", radius: int | None = None, shuffle_seed: int = 0,
                      count_grammar: bool = True, marker: bool = False,
                      sections: Sections = DEFAULT_SECTIONS, cache: RenderingCache | None = None) -> list[dict]:
    """One report per cut, with the ordering, layout and (for an ordering built per query) the query it is for."""
    encoder = TOKENIZERS.get(tokenizer)
    region = seed_region(graph, tuple(seeds), direction)
    named = {query.label: query for query in queries}
    evidence = {label: query.solve(graph).evidence for label, query in named.items()}
    policy_names = [check_policy(policy) for policy in policies]
    reports = []
    for format_name in formats or FORMATS.names():
        format_ = FORMATS.get(format_name)
        for ordering_name in orderings or ORDERINGS.names():
            ordering = ORDERINGS.get(ordering_name)
            groups = [[label] for label in named] if ordering.per_query else [list(named)]
            for layout in (layout for layout in layouts_for(format_) if layout in layouts):
                for group in groups:
                    first = named[group[0]]
                    inputs = inputs_for(ordering, tuple(seeds), evidence=evidence[group[0]],
                                        question=first.question_on(graph), shuffle_seed=shuffle_seed,
                                        direction=direction)
                    accounting = accounted_rendering(RenderingSpec(graph, format_, ordering, layout, inputs, encoder,
                                                                   radius), region=region, cache=cache)
                    for policy in policy_names:
                        for budget in budgets:
                            result = cut(accounting, format_, policy, int(budget), count_grammar=count_grammar,
                                         marker=marker, sections=sections)
                            reports.append({"ordering": ordering.name, "layout": layout,
                                            "queries": group, **cut_report(result, accounting,
                                                                          {label: evidence[label] for label in group})})
    return reports
