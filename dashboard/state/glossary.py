"""The lab's words, explained once: the glossary every dashboard page reaches (and the tests check)."""

from __future__ import annotations

GLOSSARY: dict[str, str] = {
    "unit": "What can survive or be cut: one per node (key n:<id>) and one per edge (key e:<source>|<relation>|"
            "<target>).",
    "record": "One piece of text a format writes, covering one or more units (a JSON Lines line holds one edge; a "
              "datasheet page holds a node and its edges). A budget keeps or drops whole records.",
    "grammar tokens": "The tokens of the instructions a model needs to read a format (what each field means). "
                      "They are counted in the budget by default, because a prompt must carry them.",
    "evidence": "The units an answer to the query needs, computed on the full graph by the query's solver.",
    "evidence survival": "The share of the evidence units that the kept records cover (1 = all of it survived).",
    "traversal accuracy": "1 when the query, run on what the cut kept, gives the full graph's answer; else 0.",
    "hop tiers": "Units grouped by their distance in hops from the seeds: tier 0 is the seeds, tier 1 their "
                 "neighbours, and so on. The hop_tiers ordering writes tier by tier.",
    "D_k(S)": "The exact tokens of the document that holds every unit within k hops of the seeds S (grammar "
              "included): with hop tiers and the record policy, a budget B keeps all of them once B ≥ D_k(S).",
    "RDS": "Reasoning Density Score, after the CKG benchmark: mean accuracy divided by mean tokens over the "
           "budgets (higher = more accuracy per token).",
    "Pareto front": "The formats no other format beats on both counts: none uses fewer tokens and is at least as "
                    "accurate.",
    "budget policy": "raw keeps the first B tokens of the complete text (it may not parse); record keeps whole "
                     "records while the next one fits (it always parses); sections splits B between nodes and edges.",
}


def glossary_markdown() -> str:
    """The glossary as a Markdown definition list (term in bold, then its meaning)."""
    return "\n\n".join(f"**{term}**: {meaning}" for term, meaning in GLOSSARY.items())
