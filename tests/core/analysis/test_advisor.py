"""The advisor: its pick, runner-up, margins, sentence and warnings equal what core measures."""

from __future__ import annotations

import re

import pytest

from core.analysis.advisor import AdviceSettings, advise, advise_set
from core.analysis.sweep import accounted_rendering, sweep
from core.budget.policies import cut
from core.errors import ParameterError
from core.formats import FORMATS
from core.io.generate import service_graph
from core.metrics.coverage import seed_region
from core.queries import IMPACT_OWNERS, query
from core.retrieval import ORDERINGS
from core.retrieval.ordering import inputs_for
from core.specs import RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS

GRAPH = service_graph(30, 30, 7)
QUERY = query(IMPACT_OWNERS, failed="db-identity")
SEEDS = ("db-identity",)
FORMAT_NAMES = ("csv", "compact_json", "typed_edges")
SETTINGS = AdviceSettings(budgets=(256, 512, 2048), budget=512, formats=FORMAT_NAMES,
                          orderings=("canonical", "hop_tiers", "personalized_pagerank", "question_bm25"),
                          policies=("record",), tokenizers=("o200k_base", "cl100k_base"), model="gpt-4o-mini")


@pytest.fixture(scope="module")
def advice():
    return advise(GRAPH, [QUERY], SETTINGS, seeds=SEEDS)


@pytest.fixture(scope="module")
def measured():
    return sweep(SweepSpec.from_names(GRAPH, [QUERY], seeds=SEEDS, format_names=FORMAT_NAMES,
                                      ordering_names=SETTINGS.orderings, policy_names=("record",),
                                      budgets=SETTINGS.budgets))


def best_by_hand(frame, budget):
    """Highest accuracy, then survival, then fewest tokens, then by name — over the sweep's own rows."""
    rows = [row for row in frame.itertuples() if row.budget == budget]
    return min(rows, key=lambda row: (-row.traversal_accuracy, -row.evidence_survival, row.budgeted_tokens,
                                      row.format, row.ordering, row.layout, row.policy))


def test_the_pick_and_the_runner_up_are_core_figures(advice, measured):
    best = best_by_hand(measured, 512)
    assert (advice.best.format, advice.best.ordering, advice.best.layout, advice.best.policy) == \
        (best.format, best.ordering, best.layout, best.policy)
    assert advice.best.traversal_accuracy == best.traversal_accuracy
    assert advice.best.budgeted_tokens == best.budgeted_tokens
    runner = best_by_hand(measured[measured["format"] != best.format], 512)
    assert advice.runner_up.format == runner.format and advice.runner_up.ordering == runner.ordering
    assert advice.accuracy_margin == best.traversal_accuracy - runner.traversal_accuracy
    assert advice.token_margin == runner.budgeted_tokens - best.budgeted_tokens


def evidence_kept_at(choice, budget) -> bool:
    format_, ordering = FORMATS.get(choice.format), ORDERINGS.get(choice.ordering)
    region = seed_region(GRAPH, SEEDS)
    evidence = QUERY.solve(GRAPH).evidence
    inputs = inputs_for(ordering, SEEDS, evidence=evidence, question=QUERY.question_on(GRAPH))
    accounting = accounted_rendering(RenderingSpec(GRAPH, format_, ordering, choice.layout, inputs,
                                                   TOKENIZERS.get("o200k_base")), region=region)
    return evidence <= set(cut(accounting, format_, "record", budget).kept_keys)


def test_every_figure_in_the_sentence_is_the_budget_from_which_all_evidence_survives(advice):
    figures = [int(text.replace(",", "")) for text in re.findall(r"\d[\d,]*", advice.reason)]
    assert advice.reason == (f"{advice.best.format} keeps every unit the question needs at {figures[0]:,} tokens; "
                             f"{advice.runner_up.format} needs {figures[1]:,}.")
    for choice, needed in ((advice.best, figures[0]), (advice.runner_up, figures[1])):
        assert choice.evidence_budget == needed
        assert evidence_kept_at(choice, needed) and not evidence_kept_at(choice, needed - 1)


def test_the_budget_warning_names_exactly_the_budgets_where_the_pick_is_beaten(advice, measured):
    chosen = advice.best
    for budget in (256, 2048):
        top = best_by_hand(measured, budget)
        mine = next(row for row in measured.itertuples() if row.budget == budget and
                    (row.format, row.ordering, row.layout, row.policy) ==
                    (chosen.format, chosen.ordering, chosen.layout, chosen.policy))
        beaten = ((mine.traversal_accuracy, mine.evidence_survival, -mine.budgeted_tokens)
                  < (top.traversal_accuracy, top.evidence_survival, -top.budgeted_tokens))
        text = " ".join(advice.warnings)
        assert (f"at {budget:,} tokens {top.format}/{top.ordering}/{top.layout}/{top.policy}" in text) == beaten
    assert any("with the budget" in warning for warning in advice.warnings)
    assert list(advice.picks[advice.picks["tokenizer"] == "o200k_base"]["format"]) == \
        [best_by_hand(measured, budget).format for budget in SETTINGS.budgets]


def test_the_cost_is_shown_with_its_dated_source(advice):
    assert advice.best.cost is not None and advice.best.cost.dollars > 0
    assert "tokencost" in advice.price_note and re.search(r"\d{4}-\d{2}-\d{2}", advice.price_note)


def test_oracles_and_lossy_formats_cannot_be_advised():
    with pytest.raises(ParameterError, match="evidence_first"):
        AdviceSettings(orderings=("evidence_first",)).checked()
    with pytest.raises(ParameterError, match="untyped_pairs"):
        AdviceSettings(formats=("untyped_pairs",)).checked()
    with pytest.raises(ParameterError, match="not among"):
        AdviceSettings(budgets=(512,), budget=1024).checked()


def test_a_question_set_is_advised_on_the_mean_over_its_questions():
    from core.io.samples import get_sample
    from core.questions import load_questions

    sample = get_sample("nvidia-jetson")
    graph = sample.load()
    questions = load_questions(sample.queries_path).subset(["nvidia-jetson_T1_41", "nvidia-jetson_T2_28"])
    settings = AdviceSettings(budgets=(512,), formats=("csv", "jsonl"), orderings=("canonical", "question_bm25"),
                              policies=("record",), layouts=("nodes_then_edges",))
    advice = advise_set(graph, questions, settings)
    assert advice.questions == 2
    top = advice.ranking.iloc[0]
    assert (top["format"], top["ordering"]) == (advice.best.format, advice.best.ordering)
    assert advice.reason.startswith(f"At 512 tokens {advice.best.format} answers "
                                    f"{advice.best.traversal_accuracy:.0%} of the 2 questions")


def test_progress_runs_across_both_tokenizers_sweeps_to_the_end():
    heard = []
    advise(GRAPH, [QUERY], SETTINGS, seeds=SEEDS, progress=lambda done, total, what: heard.append((done, total, what)))
    totals = {total for _, total, _ in heard}
    assert len(totals) == 1  # one whole, both tokenizers' sweeps in it
    dones = [done for done, _, _ in heard]
    assert dones == sorted(dones) and dones[-1] == totals.pop()
    assert {what.split(":")[0] for _, _, what in heard} == {"o200k_base", "cl100k_base"}


def test_a_question_set_reports_its_tasks():
    from core.io.samples import get_sample
    from core.questions import load_questions

    sample = get_sample("nvidia-jetson")
    graph = sample.load()
    questions = load_questions(sample.queries_path).subset(["nvidia-jetson_T1_41"])
    heard = []
    advise_set(graph, questions, AdviceSettings(budgets=(512,), formats=("csv",), orderings=("canonical",),
                                                policies=("record",), layouts=("nodes_then_edges",)),
               progress=lambda done, total, what: heard.append((done, total)))
    assert heard and heard[-1][0] == heard[-1][1]
