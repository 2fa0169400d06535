"""The verdict a command prints first: the best lossless, non-oracle choice per budget, and the Pareto line."""

from __future__ import annotations

import pandas as pd

from core.commands.verdict import best_per_budget, pareto_summary, verdict_table


def cut(format_name, ordering, policy, budget, accuracy, evidence, tokens, lossless=True, oracle=False):
    return dict(format=format_name, ordering=ordering, layout="nodes_then_edges", policy=policy, budget=budget,
                traversal_accuracy=accuracy, evidence_survival=evidence, budgeted_tokens=tokens, lossless=lossless,
                oracle=oracle)


def test_the_best_per_budget_ranks_accuracy_then_the_budget_reaching_it_then_tokens_then_a_parsing_policy():
    frame = pd.DataFrame([
        cut("csv", "hop_tiers", "record", 512, 1.0, 1.0, 500),
        cut("jsonl", "hop_tiers", "record", 512, 1.0, 1.0, 480),      # fewer tokens wins the tie
        cut("toon", "canonical", "record", 512, 0.0, 0.9, 300),
        cut("csv", "evidence_first", "record", 512, 1.0, 1.0, 100, oracle=True),  # an oracle is never the verdict
        cut("untyped_pairs", "hop_tiers", "record", 512, 1.0, 1.0, 90, lossless=False),  # nor a lossy format
        cut("csv", "canonical", "raw", 1024, 1.0, 1.0, 900),
        cut("csv", "canonical", "record", 1024, 1.0, 1.0, 900),        # same figures: record parses, so it wins
    ])
    best = best_per_budget(frame)
    assert best[["budget", "format", "ordering", "policy"]].values.tolist() == [
        [512, "jsonl", "hop_tiers", "record"], [1024, "csv", "canonical", "record"]]
    table = verdict_table(best)
    assert table.splitlines()[2].split() == ["512", "jsonl", "/", "hop_tiers", "/", "nodes_then_edges", "/",
                                             "record", "1.00", "512", "100%", "480", "csv"]
    assert best["tied_with"].tolist() == ["csv", ""], "csv answers as well at 512 tokens (for 20 more): a tie, named"


def test_several_queries_are_averaged_before_ranking():
    frame = pd.DataFrame([cut("csv", "hop_tiers", "record", 512, 1.0, 1.0, 500),
                          cut("csv", "hop_tiers", "record", 512, 0.0, 0.5, 500),
                          cut("jsonl", "hop_tiers", "record", 512, 1.0, 1.0, 700),
                          cut("jsonl", "hop_tiers", "record", 512, 1.0, 1.0, 700)])
    best = best_per_budget(frame)
    # Two questions cannot separate 100% from 50% (2 of 2 has the 95% interval 34%-100%): the advisor's rule picks
    # the cheaper within noise and names the other beside it.
    assert best["format"].tolist() == ["csv"] and best["traversal_accuracy"].tolist() == [0.5]
    assert best["tied_with"].tolist() == ["jsonl"]


def test_a_suite_aggregate_shows_its_wilson_interval():
    aggregate = pd.DataFrame([{**cut("csv", "hop_tiers", "record", 256, 0.95, 0.98, 0), "mean_tokens": 249.0,
                               "accuracy_low": 0.90, "accuracy_high": 0.97, "questions": 157}])
    table = verdict_table(best_per_budget(aggregate, tokens_column="mean_tokens"))
    assert "95% interval" in table.splitlines()[0] and "[0.90, 0.97]" in table and "249" in table


def test_no_candidate_says_so_instead_of_an_empty_table():
    frame = pd.DataFrame([cut("csv", "evidence_first", "record", 512, 1.0, 1.0, 100, oracle=True)])
    assert "no verdict" in verdict_table(best_per_budget(frame))


def test_the_pareto_summary_is_one_line_naming_the_never_and_always_dominated():
    verdicts = pd.DataFrame([
        dict(ordering="canonical", layout="nodes_then_edges", policy="record", format="csv", dominated=False),
        dict(ordering="canonical", layout="nodes_then_edges", policy="record", format="pretty_json", dominated=True),
        dict(ordering="hop_tiers", layout="nodes_then_edges", policy="record", format="csv", dominated=False),
        dict(ordering="hop_tiers", layout="nodes_then_edges", policy="record", format="pretty_json", dominated=True),
    ])
    line = pareto_summary(verdicts)
    assert "\n" not in line and "over 2 group(s)" in line
    assert "never dominated csv" in line and "dominated in every group pretty_json" in line


def test_with_a_suites_interval_a_format_inside_the_best_ones_interval_is_tied():
    frame = pd.DataFrame([dict(cut("csv", "hop_tiers", "record", 512, 0.80, 0.9, 500), accuracy_low=0.70,
                               accuracy_high=0.87, questions=100),
                          dict(cut("jsonl", "hop_tiers", "record", 512, 0.75, 0.9, 480), accuracy_low=0.66,
                               accuracy_high=0.83, questions=100),   # 0.75 lies in [0.70, 0.87]
                          dict(cut("toon", "hop_tiers", "record", 512, 0.60, 0.8, 300), accuracy_low=0.50,
                               accuracy_high=0.69, questions=100)])  # 0.60 does not
    best = best_per_budget(frame, tokens_column="budgeted_tokens")
    # jsonl's 75% lies inside csv's interval and it reaches it as soon, for fewer tokens: the advisor's pick
    assert best["format"].tolist() == ["jsonl"] and best["tied_with"].tolist() == ["csv"]
    assert verdict_table(best).splitlines()[2].split()[-1] == "csv"


def test_a_budget_where_nothing_answers_names_no_best():
    frame = pd.DataFrame([cut("csv", "hop_tiers", "record", 256, 0.0, 0.6, 244),
                          cut("jsonl", "hop_tiers", "record", 256, 0.0, 0.4, 250)])
    row = verdict_table(best_per_budget(frame)).splitlines()[2]
    assert "nothing answers; most evidence: csv / hop_tiers" in row and "jsonl" not in row
