"""Metrics of a cut: what survived, whether the query still answers, coverage and placement."""
