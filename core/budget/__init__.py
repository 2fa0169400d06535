"""Budgets: what of a rendering survives B tokens (raw, record and sections policies)."""
