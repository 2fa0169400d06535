"""The cut report: what one cut kept and cut, which evidence it lost and what did not fit next, as plain data.

For a pipeline that acts on a cut (TOON #312 asks for a record of what was cut): `cut_report(...)` is a
dict ready for JSON. Keys are unit keys (`n:<id>`, `e:<source>|<relation>|<target>`) in the order the
complete rendering writes them. A raw cut keeps only the units of its whole records: a record it cuts
through is counted as cut. `next` is what the policy would keep next: for a prefix policy the first
record not kept and the budget it needs (`next_budget`); for a selecting policy the best-ranked unit it
left out (no single budget keeps it: the selection changes with the budget).
"""

from __future__ import annotations

from collections.abc import Mapping

from core.budget.policies import Cut
from core.tokens.prefix_tokens import PrefixTokens


def cut_report(result: Cut, accounting: PrefixTokens, evidence: Mapping[str, frozenset[str]] | None = None) -> dict:
    """The report of `result`, a cut of `accounting`; `evidence` maps each query's label to its evidence keys."""
    kept = set(result.kept_keys)
    order = list(accounting.record_of_key)  # every key the complete rendering writes, in its order
    lost = {label: sorted(key for key in keys if key not in kept) for label, keys in (evidence or {}).items()}
    return {
        "format": result.format_name, "policy": result.policy, "budget": result.budget,
        "budgeted_tokens": result.budgeted_tokens, "tokens": result.tokens, "grammar_tokens": result.grammar_tokens,
        "empty": result.empty, "explanation": result.explanation,
        "kept": [key for key in order if key in kept],
        "cut": [key for key in order if key not in kept],
        "evidence_lost": lost,
        "next": list(result.first_dropped_keys),
        "next_budget": result.next_tokens,
    }
