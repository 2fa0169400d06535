"""The teaching sentences say what the numbers say."""

import pandas as pd

from core.teaching import comparison_sentence, orderings_sentence


def frame(rows):
    return pd.DataFrame(rows, columns=["ordering", "budget", "evidence_survival"])


def test_the_leader_is_the_ordering_with_the_most_evidence_and_the_oracle_is_left_out():
    rows = [("canonical", 256, 0.45), ("hop_tiers", 256, 0.47), ("evidence_first", 256, 1.0),
            ("canonical", 512, 0.9), ("hop_tiers", 512, 0.6), ("evidence_first", 512, 1.0)]
    sentence = orderings_sentence(frame(rows))
    assert sentence.startswith("At 256 tokens") and "hop_tiers keeps the most (evidence survival 47%)" in sentence
    assert "canonical the least (45%)" in sentence and "evidence_first" not in sentence


def test_budgets_where_all_agree_are_skipped_and_equal_curves_say_so():
    rows = [("canonical", 100, 0.0), ("hop_tiers", 100, 0.0), ("canonical", 200, 0.9), ("hop_tiers", 200, 0.5)]
    assert orderings_sentence(frame(rows)).startswith("At 200 tokens, the first budget of the list where they "
                                                       "differ, canonical keeps the most (evidence survival 90%)")
    assert orderings_sentence(frame(rows[:2])).startswith("Every real ordering gives the same")


def test_the_comparison_says_ahead_or_behind_from_the_figures():
    rows = [("canonical", 256, 0.47), ("hop_tiers", 256, 0.45), ("canonical", 1024, 0.5), ("hop_tiers", 1024, 0.9)]
    sentence = comparison_sentence(frame(rows), "hop_tiers", "canonical")
    assert "at 256 tokens hop_tiers is behind canonical (45% vs 47%)" in sentence
    assert "at 1,024 tokens hop_tiers is ahead of canonical (90% vs 50%)" in sentence


def test_several_leaders_keep_in_the_plural():
    rows = [("canonical", 100, 0.5), ("hop_tiers", 100, 0.5), ("bfs_from_seeds", 100, 0.2)]
    assert "canonical, hop_tiers keep the most (evidence survival 50%)" in orderings_sentence(frame(rows))


def test_the_tight_budget_is_a_quarter_of_the_complete_texts_exact_tokens():
    from core.generate import service_graph
    from core.registry import FORMATS, TOKENIZERS
    from core.teaching import tight_budget
    from core.units import graph_units

    graph = service_graph(6, 4, 3)
    text = FORMATS.get("csv").render(graph, graph_units(graph)).text
    assert tight_budget(graph, "csv", "cl100k_base") == TOKENIZERS.get("cl100k_base").count(text) // 4 > 0
