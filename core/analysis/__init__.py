"""Analyses over many cuts: sweeps, question-set suites, Pareto, the retriever gap, the advisor, cost."""
