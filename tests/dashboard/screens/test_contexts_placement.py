"""Contexts panels show core's placement figures and the evidence strip, under every policy and new orderings."""

from __future__ import annotations

from core.budget.policies import cut
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample
from core.metrics.placement import evidence_strip, placement
from core.pipeline import accounted_rendering
from core.retrieval import ORDERINGS
from core.retrieval.ordering import inputs_for
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from tests.dashboard.conftest import metric, on_page, started


def core_placement(format_name: str, ordering: str, policy: str, budget: int):
    sample = default_sample()
    graph = load_sample(sample.name)
    query = sample.default_query()
    evidence = query.solve(graph).evidence
    ordering_ = ORDERINGS.get(ordering)
    inputs = inputs_for(ordering_, sample.seeds, evidence=evidence, question=query.question_on(graph))
    format_ = FORMATS.get(format_name)
    accounting = accounted_rendering(RenderingSpec(graph, format_, ordering_, "nodes_then_edges", inputs,
                                                   TOKENIZERS.get("o200k_base")))
    result = cut(accounting, format_, policy, budget)
    return placement(result, accounting, evidence), evidence_strip(result, accounting, evidence)


def test_the_panels_show_core_dangling_edges_evidence_positions_and_the_strip():
    app = on_page(started(budget="900", formats=FORMATS.names()[0], ordering="question_bm25", policy="sections"),
                  "contexts")
    figures, strip = core_placement(FORMATS.names()[0], "question_bm25", "sections", 900)
    assert metric(app, "Dangling edges") == [f"{figures.dangling_edges:,}"]
    position = metric(app, "Evidence position")
    expected = "—" if not figures.evidence_positions else (
        f"{figures.evidence_position_first:.0%} · {figures.evidence_position_median:.0%} · "
        f"{figures.evidence_position_last:.0%}")
    assert position == [expected]
    strips = [block.proto.body for block in app.get("html") if 'class="evidence-strip"' in block.proto.body]
    assert len(strips) == 1 and strips[0].count('class="tick"') == len(strip.ticks)


def test_every_page_runs_with_the_sections_policy_and_a_retriever_ordering():
    app = started(budget="700", budgets="512", ordering="personalized_pagerank+ends", policy="sections")
    for page in ("contexts", "graph", "token_anatomy", "budget_survival", "orderings", "pareto", "exports"):
        on_page(app, page)
