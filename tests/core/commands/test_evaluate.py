"""`graph-context-lab evaluate` prints its verdict first: the best exact match per budget, with its interval."""

from __future__ import annotations

import pandas as pd

from core.commands.evaluate import verdict_lines


def summary_row(format_name, budget, exact, low, high, tokens, answered=3):
    return dict(format=format_name, ordering="canonical", layout="nodes_then_edges", policy="record",
                budget_tokens=budget, answered=answered, exact_match=exact, exact_match_low=low,
                exact_match_high=high, measured_tokens=tokens)


def test_the_verdict_names_the_best_cut_per_budget_with_its_interval():
    table = pd.DataFrame([summary_row("csv", 1024, 0.33, 0.06, 0.79, 1000),
                          summary_row("compact_json", 1024, 1.0, 0.44, 1.0, 990),
                          summary_row("jsonl", 2048, 1.0, 0.44, 1.0, 2000),
                          summary_row("csv", 2048, 1.0, 0.44, 1.0, 1900),        # as exact, fewer tokens
                          summary_row("toon", 2048, 1.0, 0.44, 1.0, 100, answered=0)])  # every request failed
    lines = verdict_lines(table)
    assert lines[0].startswith("verdict: the best exact match at each budget")
    assert lines[1] == ("    1,024: compact_json / canonical / nodes_then_edges / record: exact match 1.00 "
                        "[0.44–1.00] over 3 answer(s), 990 tokens")
    assert lines[2].split(":")[1].strip().startswith("csv /") and len(lines) == 3


def test_no_answer_at_all_says_so():
    table = pd.DataFrame([summary_row("csv", 1024, 0.0, 0.0, 0.0, 1000, answered=0)])
    assert verdict_lines(table) == ["verdict: no request was answered, so there is nothing to compare"]


def test_a_format_inside_the_best_ones_interval_is_named_as_a_tie():
    table = pd.DataFrame([summary_row("csv", 2048, 1.0, 0.44, 1.0, 1900),
                          summary_row("jsonl", 2048, 0.67, 0.21, 0.94, 2000),   # inside [0.44, 1.00]: a tie
                          summary_row("toon", 2048, 0.0, 0.0, 0.56, 1500)])     # outside: not named
    assert verdict_lines(table)[1].endswith("1,900 tokens; tied within the interval: jsonl")


def test_a_baseline_ordering_is_never_the_verdict_however_well_it_answered():
    shuffled = dict(summary_row("toon", 1024, 1.0, 0.44, 1.0, 500), ordering="shuffled")
    table = pd.DataFrame([shuffled, summary_row("csv", 1024, 0.67, 0.21, 0.94, 1000)])
    assert verdict_lines(table)[1].split(":")[1].strip().startswith("csv / canonical")
    only = verdict_lines(pd.DataFrame([shuffled]))
    assert only == ["verdict: only baseline orderings (random, or reading the answer) were answered; a baseline is "
                    "measured, never recommended"]


def test_a_budget_where_no_cut_is_exact_names_no_best():
    table = pd.DataFrame([summary_row("csv", 512, 0.0, 0.0, 0.56, 480), summary_row("jsonl", 512, 0.0, 0.0, 0.56, 470)])
    assert verdict_lines(table)[1] == "      512: no cut was answered exactly (6 answer(s) over 2 cut(s)), so there is no best one"
