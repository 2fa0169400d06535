"""The Budget survival page's curves: a sweep's frame in long form, one row per cut and metric."""

from __future__ import annotations

import pandas as pd

SURVIVAL_METRICS = {"evidence survival": "evidence_survival", "traversal accuracy": "traversal_accuracy",
                    "parse ok": "parse_ok"}
CURVE_DETAILS = ["budgeted_tokens", "records_kept", "records_total", "first_dropped_record", "first_dropped_keys",
                 "explanation"]


def survival_curves(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (format, ordering, policy, budget, metric) with its value and the cut's boundary record."""
    keys = ["format", "lossless", "ordering", "layout", "policy", "budget"]
    long = frame[keys + CURVE_DETAILS + list(SURVIVAL_METRICS.values())].melt(
        id_vars=keys + CURVE_DETAILS, value_vars=list(SURVIVAL_METRICS.values()), var_name="metric", value_name="value")
    names = {column: label for label, column in SURVIVAL_METRICS.items()}
    return long.assign(metric=long["metric"].map(names), value=long["value"].astype(float))
