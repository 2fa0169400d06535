"""Reports: the reference benchmark and the exports of a sweep (CSV, JSON, contexts, HTML)."""
