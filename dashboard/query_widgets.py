"""Sidebar widgets for the seeds and the query: pick nodes or type a question; a template and its parameters."""

from __future__ import annotations

from collections import Counter

from core.errors import GraphContextError
from core.graph import Graph
from core.queries import Query, QueryTemplate, query
from core.samples import Sample
from core.seeds import Seeds, seeds_from_ids, seeds_from_question
from core.registry import QUERIES
from dashboard.views.markdown_text import escape_markdown

SEED_MODES = ("nodes", "question")
QUERY_PARAMETER_PREFIX = "q_"


def seed_widgets(sidebar, graph: Graph, sample: Sample | None) -> Seeds:
    """Seeds picked by id (searchable) or matched in a question; the matched text is shown."""
    mode = sidebar.segmented_control("Seeds by", SEED_MODES, default="nodes", key="seed_mode",
                                     bind="query-params") or "nodes"
    ids = [node.id for node in graph.nodes]
    defaults = [seed for seed in (sample.seeds if sample else ()) if seed in graph.node_by_id] or ids[:1]
    if mode == "question":
        question = sidebar.text_input("Question", value=_default_question(sample, defaults), key="question",
                                      bind="query-params")
        try:
            seeds = seeds_from_question(graph, question)
        except GraphContextError as error:
            sidebar.warning(f"{escape_markdown(str(error))} Using {escape_markdown(', '.join(defaults))} instead.")
            return seeds_from_ids(graph, defaults)
        sidebar.caption("Matched: " + "; ".join(
            f"“{escape_markdown(match.text)}” → {escape_markdown(match.node_id)} (by {match.matched_by})"
            for match in seeds.matches))
        return seeds
    picked = sidebar.multiselect("Seed nodes", ids, default=defaults, key="seeds", bind="query-params",
                                 placeholder="Search node ids") or defaults
    return seeds_from_ids(graph, picked)


def _default_question(sample: Sample | None, seeds: list[str]) -> str:
    if sample is not None and sample.default_query() is not None:
        return sample.default_query().question
    return f"What depends on {seeds[0]}?" if seeds else ""


def query_widgets(sidebar, graph: Graph, seeds: Seeds, sample: Sample | None) -> Query:
    """The query template and its parameters: node parameters default to the seeds, others to the
    sample's question or the solver's defaults."""
    preset = sample.default_query() if sample is not None else None
    names = QUERIES.names()
    default_name = preset.name if preset is not None else names[0]
    name = sidebar.selectbox("Query", names, index=names.index(default_name), key="query", bind="query-params")
    template = QUERIES.get(name)
    sidebar.caption(template.title)
    presets = {**template.defaults(), **(dict(preset.arguments) if preset is not None and preset.name == name else {})}
    seed_queue = list(seeds.node_ids)
    arguments = {}
    for parameter in template.parameters:
        arguments[parameter] = _parameter_widget(sidebar, graph, template, parameter, seed_queue, presets.get(parameter))
    return query(template, **arguments)


def _parameter_widget(sidebar, graph: Graph, template: QueryTemplate, parameter: str, seed_queue: list[str],
                      preset: object) -> object:
    """One widget per parameter, chosen by what the parameter holds (node, relation, type, number, text)."""
    key = QUERY_PARAMETER_PREFIX + parameter  # shared by templates: "failed" keeps its node across them
    label = parameter.replace("_", " ").capitalize()
    ids = [node.id for node in graph.nodes]
    if parameter in template.node_parameters and template.collects_seeds and parameter == template.node_parameters[-1]:
        default = [node_id for node_id in (preset or seed_queue) if node_id in graph.node_by_id]
        seed_queue.clear()
        return tuple(sidebar.multiselect(label, ids, default=default, key=key, bind="query-params"))
    if parameter in template.node_parameters:
        from_seeds = seed_queue.pop(0) if seed_queue else None
        default = preset if preset in graph.node_by_id else (from_seeds or ids[0])
        return sidebar.selectbox(label, ids, index=ids.index(default), key=key, bind="query-params")
    if "relation" in parameter:
        return _ranked_choice(sidebar, label, [edge.relation for edge in graph.edges], preset, key)
    if "type" in parameter:
        return _ranked_choice(sidebar, label, [node.type for node in graph.nodes], preset, key)
    if isinstance(preset, int) and not isinstance(preset, bool):
        return int(sidebar.number_input(label, 0, 1000, preset, key=key, bind="query-params"))
    return sidebar.text_input(label, value="" if preset is None else str(preset), key=key, bind="query-params")


def _ranked_choice(sidebar, label: str, values: list[str], preset: object, key: str) -> str:
    """A selectbox over the graph's values, defaulting to the preset if present, else the most common."""
    counts = Counter(values)
    options = sorted(counts) or [str(preset or "")]
    default = preset if preset in counts else (counts.most_common(1)[0][0] if counts else options[0])
    return sidebar.selectbox(label, options, index=options.index(default), key=key, bind="query-params")
