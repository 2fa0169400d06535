"""Sidebar widgets for the seeds and the query: pick nodes or type a question; a template and its parameters."""

from __future__ import annotations

from core.errors import GraphContextError
from core.graph.model import Graph
from core.presentation.session_defaults import GraphDefaults, parameter_choices, parameter_presets
from core.queries import Query, QueryTemplate, query
from core.queries.model import shown_name
from core.registry import QUERIES
from core.retrieval.seeds import Seeds, seeds_from_ids, seeds_from_question
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
            named = ", ".join(shown_name(graph, node_id) for node_id in fallback)
            sidebar.warning(f"{escape_markdown(str(error))} Using {escape_markdown(named)} instead.")
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
    for parameter, preset in parameter_presets(graph, template, seeds.node_ids, defaults).items():
        arguments[parameter] = _parameter_widget(sidebar, graph, template, parameter, preset)
    return query(template, **arguments)


def widget_value(value: object) -> object:
    """A parameter's value as its widget holds it (a multiselect holds a list)."""
    return list(value) if isinstance(value, tuple) else value


def _parameter_widget(sidebar, graph: Graph, template: QueryTemplate, parameter: str, preset: object) -> object:
    """One widget per parameter, by the kind its template declares (nodes, node, relation, type, number, text)."""
    key = QUERY_PARAMETER_PREFIX + parameter  # shared by templates: "failed" keeps its node across them
    label = parameter.replace("_", " ").capitalize()
    kind = template.parameter_kind(parameter)
    options = parameter_choices(graph, template, parameter)
    if kind == "nodes":
        return tuple(sidebar.multiselect(label, options, default=list(preset), key=key, bind="query-params"))
    if kind in ("node", "relation", "type"):
        options = options or [str(preset or "")]
        return sidebar.selectbox(label, options, index=options.index(preset) if preset in options else 0, key=key,
                                 bind="query-params")
    if kind == "number":
        return int(sidebar.number_input(label, 0, 1000, preset, key=key, bind="query-params"))
    return sidebar.text_input(label, value="" if preset is None else str(preset), key=key, bind="query-params")
