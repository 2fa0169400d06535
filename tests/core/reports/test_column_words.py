"""Table and axis titles in words, never raw column names."""

from __future__ import annotations

from core.reports.column_words import words


def test_known_names_have_their_wording_and_others_lose_their_underscores():
    assert words("latency_ms_median") == "median latency (ms)"
    assert words("coverage_tokens") == "D_k(S) tokens"
    assert words("evidence_survival") == "evidence survival"


def test_a_title_already_in_words_is_kept_as_written():
    assert words("D_k(S) tokens") == "D_k(S) tokens"
