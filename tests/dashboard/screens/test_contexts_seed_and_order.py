"""Contexts panels show core's seed token share and rank inversions of each cut."""

from __future__ import annotations

from core.budget.policies import cut
from core.formats import FORMATS
from core.io.samples import default_sample, load_sample
from core.metrics.rank_order import rank_inversions
from core.metrics.seed_share import seed_token_share
from core.number_style import share
from core.pipeline import accounted_rendering
from core.retrieval import ORDERINGS
from core.retrieval.ordering import inputs_for
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from tests.dashboard.conftest import metric, on_page, started


def core_figures(format_name: str, policy: str, budget: int) -> tuple[str, str]:
    sample = default_sample()
    graph = load_sample(sample.name)
    query = sample.default_query()
    ordering = ORDERINGS.get("canonical")
    inputs = inputs_for(ordering, sample.seeds, evidence=query.solve(graph).evidence, question=query.question_on(graph))
    format_ = FORMATS.get(format_name)
    accounting = accounted_rendering(RenderingSpec(graph, format_, ordering, "nodes_then_edges", inputs,
                                                   TOKENIZERS.get("o200k_base")))
    result = cut(accounting, format_, policy, budget)
    return share(seed_token_share(result, accounting, sample.seeds)), f"{rank_inversions(result, accounting):,}"


def test_each_panel_shows_the_seeds_share_of_its_cut_and_its_rank_inversions():
    app = on_page(started(budget="900", formats="semantic_text,csv", ordering="canonical", policy="sections"),
                  "contexts")
    shares, inversions = metric(app, "Seed share"), metric(app, "Rank inversions")
    expected = [core_figures(name, "sections", 900) for name in ("semantic_text", "csv")]
    assert shares == [figure[0] for figure in expected] and inversions == [figure[1] for figure in expected]
    assert all(value.endswith("%") for value in shares)
