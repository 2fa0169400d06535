"""Budgets: what of a rendering survives B tokens. The budget policies, registered by name.

A new policy is one module defining a `BudgetPolicy` and one line below (like a format):
the prefix policies `raw` and `record`, `sections` (core.budget.policies), and the policies
that select, `density`, `knapsack` and `connected` (core.budget.selection).
"""

from core.budget.policies import DEFAULT_POLICIES, RAW, RECORD, SECTIONS, BudgetPolicy
from core.budget.selection import CONNECTED, DENSITY, KNAPSACK
from core.registry import Registry

POLICIES: Registry[BudgetPolicy] = Registry("budget policy", [(policy.name, policy) for policy in (
    RAW,
    RECORD,
    SECTIONS,
    DENSITY,
    KNAPSACK,
    CONNECTED,
)])

__all__ = ["DEFAULT_POLICIES", "POLICIES", "BudgetPolicy"]
