"""What answers: the smallest budget that answers, and with what, when the chosen budget answers nothing."""

from __future__ import annotations

import pandas as pd

from core.analysis.what_answers import Answering, answering_in_picks, answering_in_sweep, what_answers


def test_a_sweep_names_each_format_from_the_smallest_budget_it_answers_at():
    frame = pd.DataFrame({"format": ["a", "a", "a", "b", "b", "b", "c"], "budget": [500, 1000, 2000] * 2 + [2000],
                          "traversal_accuracy": [0, 1, 1, 0, 0, 1, 0.5]})
    # without exact answering budgets the figures are the grid's, labelled as swept ones
    assert answering_in_sweep(frame) == [Answering("a", 1000, exact=False), Answering("b", 2000, exact=False)]


def test_a_record_sweep_names_the_exact_budget_from_which_each_format_answers():
    frame = pd.DataFrame({"format": ["a", "a", "b", "b"], "budget": [500, 1000] * 2, "policy": ["record"] * 4,
                          "query": ["q"] * 4, "traversal_accuracy": [0, 1, 0, 1],
                          "answering_budget": [733, 733, 981, 981]})
    assert answering_in_sweep(frame) == [Answering("a", 733), Answering("b", 981)]


def test_the_sentence_gives_the_cheapest_first_and_says_when_nothing_does():
    sentence = what_answers(961, [Answering("csv", 1406), Answering("local_ids", 1161)])
    assert sentence == ("Nothing answers the query at 961 tokens. The smallest budget that does is 1,161 tokens, "
                        "with local_ids (then csv from 1,406).")
    assert "nor at any of the swept budgets" in what_answers(961, [])


def test_an_advices_picks_give_the_budgets_whose_pick_answers():
    picks = pd.DataFrame({"budget": [512, 1024], "format": ["csv", "toon"], "ordering": ["hop_tiers"] * 2,
                          "layout": ["interleaved"] * 2, "policy": ["record"] * 2, "traversal_accuracy": [0.0, 1.0]})
    assert answering_in_picks(picks) == [Answering("toon (hop_tiers, interleaved, record)", 1024)]
