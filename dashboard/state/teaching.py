"""Teaching sentences built from computed figures, so the text a page shows agrees with its numbers."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from core.formats import FORMATS
from core.graph.model import Graph
from core.graph.units import graph_units
from core.metrics.coverage import coverage_curve, seed_region
from core.queries import Query
from core.retrieval import ORDERINGS
from core.retrieval.seeds import Seeds
from core.tokens import TOKENIZERS

TIGHT_SHARE = 4  # the walkthrough's tight budget is a quarter of the complete rendering


def tight_budget(graph: Graph, format_name: str, tokenizer: str) -> int:
    """The walkthrough's tight budget: a quarter of the tokens of the format's complete canonical text."""
    text = FORMATS.get(format_name).render(graph, graph_units(graph)).text
    return TOKENIZERS.get(tokenizer).count(text) // TIGHT_SHARE


def orderings_sentence(frame: pd.DataFrame, metric: str = "evidence_survival") -> str:
    """Which real (non-oracle) ordering keeps the most and the least at the first budget where they differ.

    `frame` holds one format under one policy: columns `ordering`, `budget` and the metric.
    """
    table = frame.pivot_table(index="budget", columns="ordering", values=metric, aggfunc="mean").sort_index()
    real = [name for name in table.columns if not ORDERINGS.get(name).oracle]
    word = metric.replace("_", " ")
    for budget, row in table[real].iterrows():
        if row.max() - row.min() > 1e-12:
            best, worst = row.max(), row.min()
            leading = [name for name in real if abs(row[name] - best) <= 1e-12]
            leaders = ", ".join(leading)
            trailers = ", ".join(name for name in real if abs(row[name] - worst) <= 1e-12)
            verb = "keeps" if len(leading) == 1 else "keep"
            return (f"At {int(budget):,} tokens, the first budget of the list where they differ, {leaders} {verb} "
                    f"the most ({word} {best:.0%}) and {trailers} the least ({worst:.0%}).")
    return f"Every real ordering gives the same {word} at every budget of the list."


def comparison_sentence(frame: pd.DataFrame, first: str, second: str, metric: str = "evidence_survival") -> str:
    """`first` against `second` at each budget of `frame` (one format, one policy), in words and figures."""
    table = frame.pivot_table(index="budget", columns="ordering", values=metric, aggfunc="mean").sort_index()
    word = metric.replace("_", " ")
    parts = []
    for budget, row in table.iterrows():
        relation = "ahead of" if row[first] > row[second] else "behind" if row[first] < row[second] else "level with"
        parts.append(f"at {int(budget):,} tokens {first} is {relation} {second} ({row[first]:.0%} vs {row[second]:.0%})")
    return f"{word.capitalize()}: " + "; ".join(parts) + "."


@dataclass(frozen=True)
class StepFigures:
    """One walkthrough step's cut at the plan's budget, as core measured it."""

    ordering: str
    policy: str
    parse_ok: bool
    evidence_survival: float
    traversal_accuracy: float
    records_kept: int
    records_total: int


@dataclass(frozen=True)
class WalkthroughPlan:
    """The budget the walkthrough shows and each step's figures there (raw canonical, record canonical,
    record hop tiers), chosen so every step shows its point; `hops` is the ring whose D_k(S) is the budget."""

    budget: int
    hops: int
    steps: tuple[StepFigures, StepFigures, StepFigures]

    @property
    def shows_its_points(self) -> bool:
        """The raw cut breaks, the record cut parses, and hop tiers keep more evidence and answer rightly."""
        raw, canonical, tiers = self.steps
        return (not raw.parse_ok and canonical.parse_ok and tiers.evidence_survival > canonical.evidence_survival
                and tiers.traversal_accuracy > canonical.traversal_accuracy)


STEP_SETTINGS = (("canonical", "raw"), ("canonical", "record"), ("hop_tiers", "record"))


def walkthrough_plan(graph: Graph, query: Query, seeds: Seeds, format_name: str, tokenizer: str) -> WalkthroughPlan:
    """The smallest hop-ring budget D_k(S) at which the hop-tier record cut answers the query (traversal
    accuracy 1), with the three steps' figures there; the full coverage budget if none does sooner."""
    from core.analysis.budget_sweep import budget_sweep  # the sweep imports much; teaching's sentences need none of it

    curve = coverage_curve(seed_region(graph, seeds.node_ids), FORMATS.get(format_name), TOKENIZERS.get(tokenizer))
    rings = {tokens: hops for hops, _, tokens in reversed(curve)}  # the smallest k per distinct D_k(S)
    frame = budget_sweep(graph, query, seeds, formats=[format_name], orderings=["canonical", "hop_tiers"],
                         layout="nodes_then_edges", policies=["raw", "record"], budgets=sorted(rings),
                         tokenizer=tokenizer)
    answering = frame[(frame["ordering"] == "hop_tiers") & (frame["policy"] == "record")
                      & (frame["traversal_accuracy"] >= 1)]
    budget = int(answering["budget"].min()) if len(answering) else max(rings)
    rows = frame[frame["budget"] == budget].set_index(["ordering", "policy"])

    def figures(ordering: str, policy: str) -> StepFigures:
        row = rows.loc[(ordering, policy)]
        return StepFigures(ordering, policy, bool(row["parse_ok"]), float(row["evidence_survival"]),
                           float(row["traversal_accuracy"]), int(row["records_kept"]), int(row["records_total"]))

    raw, canonical, tiers = (figures(ordering, policy) for ordering, policy in STEP_SETTINGS)
    return WalkthroughPlan(budget, int(rings[budget]), (raw, canonical, tiers))


def step_sentences(plan: WalkthroughPlan, format_title: str) -> tuple[str, str, str]:
    """What each step shows, in words built from the plan's figures."""
    raw, canonical, tiers = plan.steps
    budget = f"{plan.budget:,} tokens"
    first = (f"At {budget}, the raw cut of the {format_title} text stops wherever the budget runs out: it "
             f"{'still parses' if raw.parse_ok else 'does not parse'}, so a decoder (or a model expecting valid "
             f"syntax) gets {'a valid' if raw.parse_ok else 'a broken'} document (evidence survival "
             f"{raw.evidence_survival:.0%}, traversal accuracy {raw.traversal_accuracy:.0f}).")
    second = (f"At the same {budget}, the record policy keeps whole records ({canonical.records_kept:,} of "
              f"{canonical.records_total:,}) and closes the document, so it "
              f"{'parses' if canonical.parse_ok else 'does not parse'}; in canonical order (by id, nodes before "
              f"edges) it keeps {canonical.evidence_survival:.0%} of the evidence, and the answer on what is kept "
              f"is {'right' if canonical.traversal_accuracy >= 1 else 'wrong'} (traversal accuracy "
              f"{canonical.traversal_accuracy:.0f}).")
    relation = ("more than" if tiers.evidence_survival > canonical.evidence_survival else
                "less than" if tiers.evidence_survival < canonical.evidence_survival else "as much as")
    third = (f"Hop tiers write the seeds first, then each ring of units one hop further. {budget} is D_{plan.hops}(S), "
             f"the tokens of every unit within {plan.hops} hop(s), so that whole ring is kept: evidence survival "
             f"{tiers.evidence_survival:.0%} ({relation} canonical's {canonical.evidence_survival:.0%}), traversal "
             f"accuracy {tiers.traversal_accuracy:.0f}.")
    return first, second, third
