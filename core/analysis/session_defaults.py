"""What a fresh session starts with on a graph: seeds, question, query, the inspected budget and the sweep budgets.

The dashboard applies these whenever the graph changes (a sample switch, an upload, a generator), as a
fresh URL would, and the CLI uses the same seeds and question for a sample. Budgets are derived from
the complete texts' exact token counts (grammar included, as the budget counts it), so they fit the
graph: the inspected budget keeps records in the formats a session shows first, and the sweep list
spans the complete texts from the smallest format's to the largest's.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.budget.policies import grammar_tokens
from core.formats import FORMATS
from core.formats.base import Format
from core.graph.model import Graph
from core.graph.units import graph_units
from core.io.samples import Sample
from core.queries import QUERIES, Query, QueryTemplate, query
from core.queries.answerable import has_answer
from core.queries.model import label_of
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import PrefixTokens

SWEEP_BUDGET_COUNT = 9
ANSWER_SEARCH = 64  # nodes tried for a default question with an answer (each a bounded traversal)
SMALLEST_SHARE = 4  # the sweep list starts at a quarter of the smallest complete text
INSPECTED_SHARE = 2  # the inspected budget is half of the cheapest shown format's complete text


@dataclass(frozen=True)
class GraphDefaults:
    """The seeds, question and query a session starts with on one graph."""

    seeds: tuple[str, ...]
    question: str
    query: Query

    @property
    def query_arguments(self) -> dict[str, object]:
        """Every parameter of the template, the solver's defaults filled in."""
        return self.query.all_arguments


def graph_defaults(graph: Graph, sample: Sample | None) -> GraphDefaults:
    """A sample's own seeds and question where they fit the graph; else the first template around the first node
    whose question has an answer on the graph (core.queries.answerable), over the graph's most used relation
    where it has no `depends_on`."""
    ids = [node.id for node in graph.nodes]
    # The first node a question can name (the adversarial sample's first id is empty) is the fallback seed.
    nameable = [node_id for node_id in ids if label_of(graph, node_id).strip() == label_of(graph, node_id) != ""]
    seeds = tuple(seed for seed in (sample.seeds if sample else ()) if seed in graph.node_by_id) or tuple(
        (nameable or ids)[:1])
    preset = sample.default_query() if sample is not None and seeds else None
    if preset is not None and _fits(preset, graph):
        return GraphDefaults(seeds, preset.question_on(graph), preset)  # nodes named by label, as a person asks
    template = QUERIES.get(QUERIES.names()[0])
    extra = _relation_arguments(template, graph)
    candidates = [query(template, **dict(zip(template.node_parameters, (node_id,))), **extra)
                  for node_id in (nameable or ids)[:ANSWER_SEARCH]]
    chosen = next((candidate for candidate in candidates if has_answer(candidate, candidate.solve(graph))),
                  candidates[0] if candidates else query(template))
    seeds = chosen.seeds or seeds
    return GraphDefaults(seeds, chosen.question_on(graph) if seeds else "", chosen)  # the question asks its query


def _relation_arguments(template: QueryTemplate, graph: Graph) -> dict[str, object]:
    """The template's relation parameters where the graph lacks their default: its most used relation."""
    counts = Counter(edge.relation for edge in graph.edges)
    defaults = template.defaults()
    if not counts:
        return {}
    common = min(counts, key=lambda relation: (-counts[relation], relation))
    return {name: common for name in template.relation_parameters if defaults.get(name) not in counts}


def _fits(preset: Query, graph: Graph) -> bool:
    """Every node the preset names exists in the graph."""
    arguments = dict(preset.arguments)
    named = [arguments.get(name) for name in preset.template.node_parameters]
    flat = [item for value in named for item in (value if isinstance(value, (tuple, list)) else [value])]
    return all(item is None or item in graph.node_by_id for item in flat)


def inspected_budget(complete_tokens: Mapping[str, int], shown: Sequence[str]) -> int:
    """Half of the cheapest shown format's complete text (grammar included), so every shown format keeps records.

    `complete_tokens` maps a format to the tokens its complete text counts against a budget.
    """
    cheapest = min(complete_tokens[name] for name in shown if name in complete_tokens)
    return max(1, cheapest // INSPECTED_SHARE)


def sweep_budgets(complete_tokens: Mapping[str, int], count: int = SWEEP_BUDGET_COUNT) -> tuple[int, ...]:
    """`count` budgets in a geometric series from a quarter of the smallest complete text to the largest one.

    Each budget is rounded to two significant digits (the largest one up, so the largest complete text
    fits at the last budget); the list is sorted and without repeats.
    """
    smallest = max(1, min(complete_tokens.values()) // SMALLEST_SHARE)
    largest = max(max(complete_tokens.values()), smallest + 1)
    ratio = (largest / smallest) ** (1 / max(count - 1, 1))
    budgets = {_two_digits(smallest * ratio ** step) for step in range(count - 1)}
    budgets.add(_two_digits(largest, up=True))
    return tuple(sorted(budget for budget in budgets if budget >= 1))


def _two_digits(value: float, up: bool = False) -> int:
    if value < 100:
        return math.ceil(value) if up else max(1, round(value))
    scale = 10 ** (int(math.log10(value)) - 1)
    return int((math.ceil(value / scale) if up else round(value / scale)) * scale)


def budget_text(budgets: Sequence[int]) -> str:
    """A budget list as the sidebar's text field writes it."""
    return ", ".join(str(budget) for budget in budgets)


def complete_tokens(graph: Graph, tokenizer_name: str, formats: Sequence[str] | None = None) -> dict[str, int]:
    """Per format (every registered one unless `formats` names some), the tokens its complete canonical text counts
    against a budget (grammar included). One complete text is alive at a time: on the largest graphs each is tens of MB."""
    tokenizer = TOKENIZERS.get(tokenizer_name)
    units = graph_units(graph)
    return {name: tokenizer.count(FORMATS.get(name).render(graph, units).text)
            + grammar_tokens(FORMATS.get(name), tokenizer) for name in (formats or FORMATS.names())}


def rendered_tokens(accounting: PrefixTokens, format_: Format) -> int:
    """What an accounted rendering's complete text counts against a budget: its tokens plus the grammar's.

    On a large graph the dashboard takes the defaults from the renderings the Contexts page cuts anyway
    (canonical order, nodes then edges), instead of rendering and counting each complete text again.
    """
    return accounting.total + grammar_tokens(format_, accounting.tokenizer)


def parameter_choices(graph: Graph, template: QueryTemplate, parameter: str) -> list[str]:
    """What a parameter can be set to on this graph, by its declared kind: node ids, or the relations or node
    types present (sorted); [] for a number or free text."""
    kind = template.parameter_kind(parameter)
    if kind in ("node", "nodes"):
        return [node.id for node in graph.nodes]
    if kind == "relation":
        return sorted({edge.relation for edge in graph.edges})
    if kind == "type":
        return sorted({node.type for node in graph.nodes})
    return []


def parameter_presets(graph: Graph, template: QueryTemplate, seeds: Sequence[str],
                      defaults: GraphDefaults) -> dict[str, object]:
    """What each parameter of `template` starts at on this graph, by its declared kind: the graph's default
    query where it is this template, node parameters from the seeds in order (the collecting one takes the rest),
    relations and types present in the graph (the preset if present, else the most common), numbers and text."""
    presets = {**template.defaults(),
               **(dict(defaults.query.arguments) if defaults.query.name == template.name else {})}
    ids = [node.id for node in graph.nodes]
    seed_queue = list(seeds)
    values: dict[str, object] = {}
    for parameter in template.parameters:
        preset = presets.get(parameter)
        kind = template.parameter_kind(parameter)
        if kind == "nodes":
            chosen = preset if isinstance(preset, (tuple, list)) else seed_queue
            values[parameter] = tuple(node_id for node_id in chosen if node_id in graph.node_by_id)
            seed_queue.clear()
        elif kind == "node":
            from_seeds = seed_queue.pop(0) if seed_queue else None
            values[parameter] = preset if preset in graph.node_by_id else (from_seeds or (ids[0] if ids else ""))
        elif kind == "relation":
            values[parameter] = _most_common([edge.relation for edge in graph.edges], preset)
        elif kind == "type":
            values[parameter] = _most_common([node.type for node in graph.nodes], preset)
        elif kind == "number":
            values[parameter] = preset
        else:
            values[parameter] = "" if preset is None else str(preset)
    return values


def _most_common(values: list[str], preset: object) -> str:
    """The preset if the graph has it, else the graph's most common value."""
    counts = Counter(values)
    if preset in counts:
        return str(preset)
    return counts.most_common(1)[0][0] if counts else str(preset or "")
