"""The advisor: its pick, runner-up, margins, sentence and warnings equal what core measures."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from core.analysis.advisor import AdviceSettings, advise, advise_set
from core.analysis.ranking import wilson_interval
from core.analysis.sweep import sweep
from core.budget import POLICIES
from core.budget.policies import cut
from core.errors import ParameterError
from core.formats import FORMATS
from core.io.generate import service_graph
from core.metrics.coverage import seed_region
from core.pipeline import accounted_rendering
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
def answering():
    """The advice at a budget where the candidates answer (at 512 nothing does: tests/core/analysis/
    test_advisor_nothing_answers.py covers that case)."""
    return advise(GRAPH, [QUERY], replace(SETTINGS, budget=2048), seeds=SEEDS)


@pytest.fixture(scope="module")
def measured():
    return sweep(SweepSpec.from_names(GRAPH, [QUERY], seeds=SEEDS, format_names=FORMAT_NAMES,
                                      ordering_names=SETTINGS.orderings, policy_names=("record",),
                                      budgets=SETTINGS.swept_budgets))


def ranked_by_hand(frame, budget):
    """One question: highest accuracy, then the smallest budget reaching it (exact for the record policy, else the
    smallest swept one up to `budget`), then the tokens there, then the policy that parses, then by name; baseline
    orderings left out. Over the sweep's own rows."""
    rows = [row for row in frame.itertuples() if not ORDERINGS.get(row.ordering).baseline]

    def key(row):
        same = [other for other in rows if (other.format, other.ordering, other.layout, other.policy) ==
                (row.format, row.ordering, row.layout, row.policy) and other.budget <= budget]
        reach = min(other.budget for other in same if other.traversal_accuracy >= row.traversal_accuracy)
        tokens = next(other.budgeted_tokens for other in same if other.budget == reach)
        if row.policy == "record" and row.traversal_accuracy == 1 and row.answering_budget == row.answering_budget:
            reach = tokens = row.answering_budget  # the exact budget from which it answers (one question)
        return (-row.traversal_accuracy, reach, tokens, POLICIES.get(row.policy).preference,
                f"{row.format}/{row.ordering}/{row.layout}/{row.policy}"), reach, tokens

    return sorted(((key(row), row) for row in rows if row.budget == budget), key=lambda item: item[0][0])


def best_by_hand(frame, budget):
    return ranked_by_hand(frame, budget)[0][1]


def test_the_pick_and_the_runner_up_are_core_figures(advice, measured):
    ranking = ranked_by_hand(measured, 512)
    (_, reach, tokens), best = ranking[0]
    assert (advice.best.format, advice.best.ordering, advice.best.layout, advice.best.policy) == \
        (best.format, best.ordering, best.layout, best.policy)
    assert advice.best.traversal_accuracy == best.traversal_accuracy
    assert advice.best.budgeted_tokens == best.budgeted_tokens
    assert (advice.best.reach_budget, advice.best.reach_tokens) == (reach, tokens)
    (_, reach, tokens), runner = next(item for item in ranking if item[1].format != best.format)
    assert advice.runner_up.format == runner.format and advice.runner_up.ordering == runner.ordering
    assert (advice.runner_up.reach_budget, advice.runner_up.reach_tokens) == (reach, tokens)
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


def test_every_figure_in_the_sentence_is_a_core_figure(answering):
    advice = answering
    best, runner = advice.best, advice.runner_up
    assert advice.answers and best.traversal_accuracy > 0
    low, high = best.interval
    expected = (f"At 2,048 tokens {best.format} answers {best.traversal_accuracy:.0%} of the question (95% interval "
                f"{low:.0%}-{high:.0%}) and reaches that from {best.reach_budget:,} tokens; {runner.format} answers "
                f"{runner.traversal_accuracy:.0%} ({runner.interval[0]:.0%}-{runner.interval[1]:.0%}) and reaches that "
                f"from {runner.reach_budget:,} tokens. {best.format} keeps every unit the question needs at "
                f"{best.evidence_budget:,} tokens; {runner.format} needs {runner.evidence_budget:,}.")
    assert advice.reason.startswith(expected)
    assert best.interval == wilson_interval(best.correct, 1) and best.correct == round(best.traversal_accuracy)
    # one question never separates two candidates, and the advice says what it rests on
    assert advice.tied and "Tied within noise: the advice rests on one question" in advice.reason
    def by_cost(choice):  # the budget it answers from; the tokens used there only when they differ from it
        return (f"{choice.reach_budget:,} tokens" if round(choice.reach_tokens) == choice.reach_budget
                else f"{choice.reach_tokens:,.0f} tokens at {choice.reach_budget:,}")
    assert f"picks by cost: {by_cost(best)} against {by_cost(runner)}." in advice.reason


def test_the_evidence_budgets_in_the_sentence_are_where_all_evidence_survives(answering):
    advice = answering
    found = re.search(r"needs at ([\d,]+) tokens; \S+ needs ([\d,]+)\.", advice.reason)
    figures = [int(text.replace(",", "")) for text in found.groups()]
    for choice, needed in ((advice.best, figures[0]), (advice.runner_up, figures[1])):
        assert choice.evidence_budget == needed
        assert evidence_kept_at(choice, needed) and not evidence_kept_at(choice, needed - 1)


def test_the_budget_warning_names_exactly_the_budgets_where_the_pick_changes(advice, measured):
    chosen = advice.best
    text = " ".join(advice.warnings)
    for budget in (256, 2048):
        top = best_by_hand(measured, budget)
        changed = (top.format, top.ordering, top.layout, top.policy) != \
            (chosen.format, chosen.ordering, chosen.layout, chosen.policy)
        assert (f"at {budget:,} tokens {top.format}/{top.ordering}/{top.layout}/{top.policy}" in text) == changed
    assert list(advice.picks[advice.picks["tokenizer"] == "o200k_base"]["format"]) == \
        [best_by_hand(measured, budget).format for budget in SETTINGS.budgets]


def test_the_cost_is_shown_with_its_dated_source(advice):
    assert advice.best.cost is not None and advice.best.cost.dollars > 0
    assert "tokencost" in advice.price_note and re.search(r"\d{4}-\d{2}-\d{2}", advice.price_note)


def test_lossy_formats_and_baselines_alone_cannot_be_advised():
    with pytest.raises(ParameterError, match="baseline"):
        AdviceSettings(orderings=("evidence_first", "shuffled")).checked()
    with pytest.raises(ParameterError, match="untyped_pairs"):
        AdviceSettings(formats=("untyped_pairs",)).checked()
    assert AdviceSettings(budgets=(512,), budget=1024).checked().budgets == (512, 1024)  # the advised one is added


def test_random_and_oracle_orderings_are_shown_as_baselines_never_picked():
    settings = AdviceSettings(budgets=(512,), formats=("csv", "semantic_text"),
                              orderings=("shuffled", "evidence_first", "canonical", "hop_tiers"), policies=("record",),
                              layouts=("nodes_then_edges",))
    advice = advise(GRAPH, [QUERY], settings, seeds=SEEDS)
    assert ORDERINGS.get("shuffled").baseline and ORDERINGS.get("evidence_first").baseline
    assert not advice.best.baseline and advice.best.ordering in ("canonical", "hop_tiers")
    assert {choice.ordering for choice in advice.baselines} == {"shuffled", "evidence_first"}
    assert list(advice.ranking["baseline"]) == sorted(advice.ranking["baseline"])  # baselines after every candidate
    for choice in advice.baselines:
        assert f"{choice.ordering} ({choice.format}) answers {choice.traversal_accuracy:.0%}" in advice.reason


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
    assert advice.best.correct == round(advice.best.traversal_accuracy * 2) and advice.best.questions == 2
    assert "rests on 2 questions" in advice.reason or "Separated on 2 questions" in advice.reason


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
