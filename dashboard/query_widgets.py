"""Sidebar widgets for the seeds and the query: pick nodes or type a question; a template and its parameters."""

from __future__ import annotations

from collections import Counter

from core.errors import GraphContextError
from core.graph import Graph
from core.queries import Query, QueryTemplate, query
from core.registry import QUERIES
from core.seeds import Seeds, seeds_from_ids, seeds_from_question
from core.session_defaults import GraphDefaults
from dashboard.views.markdown_text import escape_markdown

SEED_MODES = ("nodes", "question")
QUERY_PARAMETER_PREFIX = "q_"


def seed_widgets(sidebar, graph: Graph, defaults: GraphDefaults) -> Seeds:
    """Seeds picked by id (searchable) or matched in a question; the matched text is shown."""
    mode = sidebar.segmented_control("Seeds by", SEED_MODES, default="nodes", key="seed_mode",
                                     bind="query-params") or "nodes"
    ids = [node.id for node in graph.nodes]
    fallback = list(defaults.seeds)
    if mode == "question":
        question = sidebar.text_input("Question", value=defaults.question, key="question", bind="query-params")
        try:
            seeds = seeds_from_question(graph, question)
        except GraphContextError as error:
            sidebar.warning(f"{escape_markdown(str(error))} Using {escape_markdown(', '.join(fallback))} instead.")
            return seeds_from_ids(graph, fallback)
        sidebar.caption("Matched: " + "; ".join(
            f"“{escape_markdown(match.text)}” → {escape_markdown(match.node_id)} (by {match.matched_by})"
            for match in seeds.matches))
        return seeds
    picked = sidebar.multiselect("Seed nodes", ids, default=fallback, key="seeds", bind="query-params",
                                 placeholder="Search node ids") or fallback
    return seeds_from_ids(graph, picked)


def query_widgets(sidebar, graph: Graph, seeds: Seeds, defaults: GraphDefaults) -> Query:
    """The query template and its parameters: node parameters default to the seeds, others to the
    graph's default question or the solver's defaults."""
    names = QUERIES.names()
    name = sidebar.selectbox("Query", names, index=names.index(defaults.query.name), key="query",
                             bind="query-params")
    template = QUERIES.get(name)
    sidebar.caption(template.title)
    arguments = {}
    for parameter, preset in parameter_defaults(graph, template, seeds.node_ids, defaults).items():
        arguments[parameter] = _parameter_widget(sidebar, graph, template, parameter, preset)
    return query(template, **arguments)


def parameter_defaults(graph: Graph, template: QueryTemplate, seeds: tuple[str, ...],
                       defaults: GraphDefaults) -> dict[str, object]:
    """What each parameter widget of `template` starts at on this graph: the graph's default query where it is
    this template, node parameters from the seeds in order, relations and types present in the graph."""
    presets = {**template.defaults(),
               **(dict(defaults.query.arguments) if defaults.query.name == template.name else {})}
    ids = [node.id for node in graph.nodes]
    seed_queue = list(seeds)
    values: dict[str, object] = {}
    for parameter in template.parameters:
        preset = presets.get(parameter)
        if parameter in template.node_parameters and template.collects_seeds \
                and parameter == template.node_parameters[-1]:
            chosen = preset if isinstance(preset, (tuple, list)) else seed_queue
            values[parameter] = tuple(node_id for node_id in chosen if node_id in graph.node_by_id)
            seed_queue.clear()
        elif parameter in template.node_parameters:
            from_seeds = seed_queue.pop(0) if seed_queue else None
            values[parameter] = preset if preset in graph.node_by_id else (from_seeds or (ids[0] if ids else ""))
        elif "relation" in parameter:
            values[parameter] = _ranked_default([edge.relation for edge in graph.edges], preset)
        elif "type" in parameter:
            values[parameter] = _ranked_default([node.type for node in graph.nodes], preset)
        elif isinstance(preset, int) and not isinstance(preset, bool):
            values[parameter] = preset
        else:
            values[parameter] = "" if preset is None else str(preset)
    return values


def widget_value(value: object) -> object:
    """A parameter's value as its widget holds it (a multiselect holds a list)."""
    return list(value) if isinstance(value, tuple) else value


def _parameter_widget(sidebar, graph: Graph, template: QueryTemplate, parameter: str, preset: object) -> object:
    """One widget per parameter, chosen by what the parameter holds (node, relation, type, number, text)."""
    key = QUERY_PARAMETER_PREFIX + parameter  # shared by templates: "failed" keeps its node across them
    label = parameter.replace("_", " ").capitalize()
    ids = [node.id for node in graph.nodes]
    if isinstance(preset, tuple):
        return tuple(sidebar.multiselect(label, ids, default=list(preset), key=key, bind="query-params"))
    if parameter in template.node_parameters:
        return sidebar.selectbox(label, ids, index=ids.index(preset) if preset in ids else 0, key=key,
                                 bind="query-params")
    if "relation" in parameter:
        return _ranked_choice(sidebar, label, [edge.relation for edge in graph.edges], preset, key)
    if "type" in parameter:
        return _ranked_choice(sidebar, label, [node.type for node in graph.nodes], preset, key)
    if isinstance(preset, int) and not isinstance(preset, bool):
        return int(sidebar.number_input(label, 0, 1000, preset, key=key, bind="query-params"))
    return sidebar.text_input(label, value="" if preset is None else str(preset), key=key, bind="query-params")


def _ranked_default(values: list[str], preset: object) -> str:
    """The preset if the graph has it, else the graph's most common value."""
    counts = Counter(values)
    if preset in counts:
        return str(preset)
    return counts.most_common(1)[0][0] if counts else str(preset or "")


def _ranked_choice(sidebar, label: str, values: list[str], preset: object, key: str) -> str:
    """A selectbox over the graph's values, starting at the preset."""
    options = sorted(Counter(values)) or [str(preset or "")]
    index = options.index(preset) if preset in options else 0
    return sidebar.selectbox(label, options, index=index, key=key, bind="query-params")
