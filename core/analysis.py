"""The figures of the dashboard's analysis pages: budget sweeps, curve markers, anatomy per format, Pareto tables.

Each function is pure and built on the budget engine (`core.sweep`, `core.pareto`, `core.coverage`)
and `core.token_anatomy`; the pages only draw what these return.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

from core.budget import POLICIES, cut, grammar_tokens
from core.coverage import coverage_tokens, seed_region
from core.errors import ParameterError
from core.graph import Graph
from core.ordering import OrderingInputs, inputs_for, layouts_for
from core.pareto import dominance_across_budgets, pareto_per_budget
from core.queries import Query
from core.registry import FORMATS, ORDERINGS, TOKENIZERS
from core.seeds import Seeds
from core.sweep import Progress, accounted_rendering, sweep
from core.token_anatomy import Anatomy, cut_anatomy, rendering_anatomy
from core.units import graph_units

DEFAULT_BUDGET_LIST = (256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536)
MAX_BUDGETS = 24
ACCURACIES = {"traversal accuracy": "traversal_accuracy", "evidence survival": "evidence_survival"}
SURVIVAL_METRICS = {"evidence survival": "evidence_survival", "traversal accuracy": "traversal_accuracy",
                    "parse ok": "parse_ok"}
CURVE_DETAILS = ["budgeted_tokens", "records_kept", "records_total", "first_dropped_record", "first_dropped_keys",
                 "explanation"]


def parse_budgets(text: str) -> tuple[int, ...]:
    """Budgets typed as whole numbers separated by commas or spaces, sorted and without repeats."""
    parts = [part for part in re.split(r"[,\s]+", text.strip()) if part]
    if not parts:
        raise ParameterError("no budget was given", "budget list", "type budgets like 256, 1024, 4096")
    budgets = set()
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= 10_000_000:
            raise ParameterError(f"{part!r} is not a budget", "budget list",
                                 "type whole numbers of tokens from 1 to 10,000,000, separated by commas")
        budgets.add(int(part))
    if len(budgets) > MAX_BUDGETS:
        raise ParameterError(f"{len(budgets)} budgets given", "budget list", f"give at most {MAX_BUDGETS}")
    return tuple(sorted(budgets))


def effective_layout(format_name: str, layout: str) -> str:
    """The layout a format is drawn in: the chosen one when it can show it, else nodes then edges."""
    return layout if layout in layouts_for(FORMATS.get(format_name)) else "nodes_then_edges"


def budget_sweep(graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], orderings: Sequence[str],
                 layout: str, policies: Sequence[str] = POLICIES, budgets: Sequence[int] = DEFAULT_BUDGET_LIST,
                 tokenizer: str = "o200k_base", progress: Progress | None = None, workers: int = 1) -> pd.DataFrame:
    """The sweep behind the analysis pages: each format in its effective layout, one query, one row per cut.

    In this process by default (`workers=1`): a page's sweep is a few renderings, where a pool of
    processes would cost more to start than it saves, and the token cache stays warm for redraws.
    """
    groups: dict[str, list[str]] = {}
    for name in formats:
        groups.setdefault(effective_layout(name, layout), []).append(name)
    done = 0
    total = len(formats) * len(orderings) * len(policies) * len(budgets)

    def report(count: int, _: int, what: str) -> None:
        if progress is not None:
            progress(done + count, total, what)

    frames = []
    for group_layout, names in groups.items():
        frames.append(sweep(graph, [query], seeds=seeds, formats=names, orderings=orderings, layouts=(group_layout,),
                            policies=policies, budgets=budgets, tokenizer=tokenizer, progress=report,
                            workers=workers))
        done += len(frames[-1])
    frame = pd.concat(frames, ignore_index=True)
    frame.attrs = frames[0].attrs
    return frame


def ordering_inputs(graph: Graph, query: Query, seeds: Seeds, ordering: str) -> OrderingInputs:
    """What the ordering looks at: the seeds, and the query's evidence when the ordering uses it."""
    ordering_ = ORDERINGS.get(ordering)
    return inputs_for(ordering_, seeds.node_ids, evidence=query.solve(graph).evidence if ordering_.uses_evidence
                      else frozenset(), question=query.question_on(graph))


def format_markers(graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], ordering: str, layout: str,
                   tokenizer: str = "o200k_base", hops: int = 2) -> pd.DataFrame:
    """Per format: D_k(S) (the budget that holds every unit within k hops) and the full text's budgeted tokens."""
    encoder = TOKENIZERS.get(tokenizer)
    region = seed_region(graph, seeds.node_ids)
    ordering_ = ORDERINGS.get(ordering)
    inputs = ordering_inputs(graph, query, seeds, ordering)
    rows = []
    for name in formats:
        format_ = FORMATS.get(name)
        arranged = effective_layout(name, layout)
        accounting = accounted_rendering(graph, format_, ordering_, arranged, inputs, encoder, region=region)
        rows.append({"format": name, "lossless": format_.lossless,
                     "coverage_tokens": coverage_tokens(region, format_, hops, encoder, layout=arranged)
                     if seeds.node_ids else None,
                     "full_tokens": int(accounting.counts[-1]) + grammar_tokens(format_, encoder)})
    return pd.DataFrame(rows, columns=["format", "lossless", "coverage_tokens", "full_tokens"])


def format_anatomies(graph: Graph, query: Query, seeds: Seeds, *, formats: Sequence[str], ordering: str,
                     layout: str, tokenizer: str, budget: int | None = None, policy: str = "record",
                     marker: bool = False) -> list[Anatomy]:
    """Each format's token anatomy: of its complete text (budget None) or of its cut at the budget."""
    encoder = TOKENIZERS.get(tokenizer)
    ordering_ = ORDERINGS.get(ordering)
    inputs = ordering_inputs(graph, query, seeds, ordering)
    anatomies = []
    for name in formats:
        format_ = FORMATS.get(name)
        accounting = accounted_rendering(graph, format_, ordering_, effective_layout(name, layout), inputs, encoder)
        if budget is None:
            anatomies.append(rendering_anatomy(accounting.rendering, format_, encoder))
        else:
            anatomies.append(cut_anatomy(cut(accounting, format_, policy, budget, marker=marker), format_, encoder))
    return anatomies


def survival_curves(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (format, ordering, policy, budget, metric) with its value and the cut's boundary record."""
    keys = ["format", "lossless", "ordering", "layout", "policy", "budget"]
    long = frame[keys + CURVE_DETAILS + list(SURVIVAL_METRICS.values())].melt(
        id_vars=keys + CURVE_DETAILS, value_vars=list(SURVIVAL_METRICS.values()), var_name="metric", value_name="value")
    names = {column: label for label, column in SURVIVAL_METRICS.items()}
    return long.assign(metric=long["metric"].map(names), value=long["value"].astype(float))


def tokenizer_comparison(graph: Graph, tokenizers: Sequence[str], formats: Sequence[str] | None = None
                         ) -> pd.DataFrame:
    """Tokens of each format's complete text (canonical order) under each tokenizer, with the second's ratio."""
    units = graph_units(graph)
    texts = {name: FORMATS.get(name).render(graph, units).text for name in formats or FORMATS.names()}
    table = pd.DataFrame({tokenizer: [TOKENIZERS.get(tokenizer).count(text) for text in texts.values()]
                          for tokenizer in tokenizers}, index=pd.Index(list(texts), name="format"))
    if len(tokenizers) > 1:
        first, second = tokenizers[0], tokenizers[1]
        table[f"{second} - {first}"] = table[second] - table[first]
        table[f"{second} / {first}"] = table[second] / table[first].where(table[first] > 0)
    return table


def pareto_points(frame: pd.DataFrame, accuracy: str) -> pd.DataFrame:
    """Per budget, each format's (budgeted tokens, accuracy) with the non-dominated front marked."""
    points = pareto_per_budget(frame, accuracy=ACCURACIES[accuracy])
    lossless = dict(zip(frame["format"], frame["lossless"]))
    return points.assign(lossless=[bool(lossless[name]) for name in points["format"]])


def dominated_formats(frame: pd.DataFrame, accuracy: str) -> pd.DataFrame:
    """Formats dominated under the across-budget rule, with the formats that dominate each."""
    table = dominance_across_budgets(frame, accuracy=ACCURACIES[accuracy])
    return table[table["dominated"]].reset_index(drop=True)


def efficiency_table(frame: pd.DataFrame, accuracy: str) -> pd.DataFrame:
    """Per format over the tested budgets: mean tokens and accuracy, accuracy per 1,000 tokens, and
    the CKG-style Reasoning Density Score (mean accuracy / mean tokens), best first."""
    table = dominance_across_budgets(frame, accuracy=ACCURACIES[accuracy])
    lossless = dict(zip(frame["format"], frame["lossless"]))
    table = table.assign(lossless=[bool(lossless[name]) for name in table["format"]],
                         rds=table["mean_accuracy"] / table["mean_tokens"].where(table["mean_tokens"] > 0))
    columns = ["format", "lossless", "mean_tokens", "mean_accuracy", "efficiency", "rds", "dominated", "dominated_by"]
    return table[columns].sort_values("efficiency", ascending=False, na_position="last").reset_index(drop=True)


def best_lossless(table: pd.DataFrame) -> str | None:
    """The lossless format with the highest accuracy per 1,000 tokens in an efficiency table."""
    lossless = table[table["lossless"] & table["efficiency"].notna()]
    return None if lossless.empty else str(lossless.loc[lossless["efficiency"].idxmax(), "format"])
