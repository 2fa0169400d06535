"""Budgets: what of a rendering survives B tokens. The budget policies, registered by name.

A new policy is one module defining a `BudgetPolicy` and one registry line below (like a format):
the prefix policies `raw` and `record` and `sections` are registered where they are defined
(core.budget.policies); the policies that select, `density`, `knapsack` and `connected`
(core.budget.selection), here.
"""

from core.budget.policies import DEFAULT_POLICIES, POLICY_REGISTRY, BudgetPolicy
from core.budget.selection import CONNECTED, DENSITY, KNAPSACK

POLICIES = POLICY_REGISTRY
POLICIES.register(DENSITY.name, DENSITY)
POLICIES.register(KNAPSACK.name, KNAPSACK)
POLICIES.register(CONNECTED.name, CONNECTED)

__all__ = ["DEFAULT_POLICIES", "POLICIES", "BudgetPolicy"]
