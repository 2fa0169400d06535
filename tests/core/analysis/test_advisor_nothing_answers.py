"""The advisor when nothing answers at the budget: no pick, and every figure of its sentences is one its own
table (or a cut made here) gives: the smallest budget that answers, the candidates keeping the most evidence."""

from __future__ import annotations

import re

import pytest

from core.analysis.advisor import AdviceSettings, advise, candidate_table, evidence_budget, sweep_rows
from core.analysis.sweep import sweep
from core.io.samples import load_sample
from core.queries import QUERIES, query_from_seeds
from core.specs import SweepSpec

GRAPH = load_sample("nvidia-jetson")
SEEDS = ("12",)
QUERY = query_from_seeds(QUERIES.get("dependencies_within"), SEEDS)  # what `advise --seeds 12` asks on the sample
SETTINGS = AdviceSettings(budget=16, formats=("csv", "ckg_lines", "compact_json"),
                          orderings=("hop_tiers", "bfs_from_seeds", "shuffled"), policies=("record",))


@pytest.fixture(scope="module")
def advice():
    return advise(GRAPH, [QUERY], SETTINGS, seeds=SEEDS)


@pytest.fixture(scope="module")
def table():
    """The advisor's own table: the candidates' means per (tokenizer, budget), from its own sweep."""
    return candidate_table(sweep_rows(GRAPH, [QUERY], SEEDS, SETTINGS.checked()))


def accuracy_at(format_name: str, ordering: str, layout: str, budget: int) -> float:
    """A cut made here, apart from the advisor: the record policy's traversal accuracy at one budget."""
    frame = sweep(SweepSpec.from_names(GRAPH, [QUERY], seeds=SEEDS, format_names=[format_name],
                                       ordering_names=[ordering], layouts=[layout], policy_names=["record"],
                                       budgets=[budget]))
    return float(frame["traversal_accuracy"].iloc[0])


def test_nothing_is_picked_and_the_sentence_names_the_smallest_budget_that_answers(advice):
    assert not advice.answers
    assert advice.nothing_answers.startswith("Nothing answers the question at 16 tokens. The smallest ")
    assert advice.smallest_answering_budget == min(item.budget for item in advice.answering)
    assert f"is {advice.smallest_answering_budget:,} tokens, with {advice.answering[0].choice}" in \
        advice.nothing_answers
    assert "picks by cost" not in advice.reason and "reaches that from" not in advice.reason
    assert advice.reason.startswith("At 16 tokens every one of the ")


def test_each_answering_budget_is_where_that_candidate_starts_to_answer(advice, table):
    here = table[(table["tokenizer"] == advice.tokenizer) & ~table["baseline"]]
    assert (here.loc[here["budget"] == 16, "traversal_accuracy"] == 0).all()  # nothing answers at the budget
    named = re.findall(r"(?:with|then|;) (\S+ \([^)]*\)) from ([\d,]+)", advice.nothing_answers)
    first = re.search(r"is ([\d,]+) tokens, with (\S+ \([^)]*\))", advice.nothing_answers)
    sentence = [(first.group(2), int(first.group(1).replace(",", "")))] + \
        [(choice, int(budget.replace(",", ""))) for choice, budget in named]
    assert sentence == [(item.choice, item.budget) for item in advice.answering][:len(sentence)]
    for item in advice.answering:
        format_name, rest = item.choice.split(" (")
        ordering, layout, _policy = rest.rstrip(")").split(", ")
        rows = here[(here["format"] == format_name) & (here["ordering"] == ordering) & (here["layout"] == layout)]
        swept = rows[rows["traversal_accuracy"] > 0]["budget"]
        if item.exact:  # the exact figure: a cut here answers from it and not one token below
            assert accuracy_at(format_name, ordering, layout, item.budget) == 1.0
            assert accuracy_at(format_name, ordering, layout, item.budget - 1) == 0.0
            assert item.budget <= swept.min()
        else:  # the swept budget: the smallest of the table's at which it answers
            assert item.budget == swept.min()
    # nothing answers below the smallest figure: no candidate's smallest swept answering budget is smaller
    answering = here[here["traversal_accuracy"] > 0]
    assert advice.smallest_answering_budget <= answering["budget"].min()


def test_the_most_evidence_kept_are_the_tables_figures_at_the_budget(advice, table):
    at = table[(table["tokenizer"] == advice.tokenizer) & (table["budget"] == 16) & ~table["baseline"]]
    assert advice.most_evidence and max(at["evidence_survival"]) == advice.most_evidence[0].evidence_survival
    compared = len(at)
    assert f"every one of the {compared:,} candidates compared answers 0% of the question" in advice.reason
    for choice in advice.most_evidence:
        row = at[(at["format"] == choice.format) & (at["ordering"] == choice.ordering)
                 & (at["layout"] == choice.layout)].iloc[0]
        assert (choice.evidence_survival, choice.budgeted_tokens) == (row["evidence_survival"], row["budgeted_tokens"])
        assert (f"{choice.name} keeps {choice.evidence_survival:.0%} of it in {choice.budgeted_tokens:,.0f} tokens"
                in advice.reason)
        assert choice.evidence_budget == evidence_budget(GRAPH, QUERY, SEEDS, choice, advice.tokenizer)
        assert f"{choice.format} " in advice.reason and f"{choice.evidence_budget:,}" in advice.reason


def test_a_budget_given_where_nothing_answers_is_warned_as_such_never_as_a_pick():
    settings = AdviceSettings(budgets=(16, 2048), budget=2048, formats=("csv", "ckg_lines"),
                              orderings=("hop_tiers", "bfs_from_seeds"), policies=("record",))
    advice = advise(GRAPH, [QUERY], settings, seeds=SEEDS)
    assert advice.answers
    assert "at 16 tokens nothing answers" in " ".join(advice.warnings)
    assert "accuracy 0%" not in " ".join(advice.warnings)
