"""The progress bar's estimate: the time left at the pace so far."""

from core.execution.progress_estimate import progress_text, seconds_left


def test_the_time_left_follows_the_pace_so_far():
    assert seconds_left(100, 400, 10.0) == 30.0  # 100 cuts in 10 s: 300 more take 30 s
    assert seconds_left(0, 400, 10.0) is None and seconds_left(400, 400, 10.0) is None


def test_the_words_give_counts_with_separators_and_the_estimate():
    assert progress_text("Sweeping budgets", 1_200, 4_800, 12.0) == (
        "Sweeping budgets: 1,200 of 4,800 cuts, 12 s so far, about 36 s left")
    assert progress_text("Sweeping budgets", 0, 4_800, 0.2) == "Sweeping budgets: 0 of 4,800 cuts, 0 s so far"
