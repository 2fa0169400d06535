"""Sidebar widgets for the seeds and the query: pick nodes or type a question; a template and its parameters."""

from __future__ import annotations

import streamlit as st

from core.analysis.session_defaults import GraphDefaults, parameter_choices, parameter_presets
from core.errors import GraphContextError
from core.graph.model import Graph
from core.queries import QUERIES, Query, QueryTemplate, query
from core.questions.reading import QuestionReading, read_question
from core.retrieval.seeds import Seeds, seeds_from_ids, seeds_from_question
from dashboard.state.detour import QUERY_PARAMETER_PREFIX  # one spelling for the sidebar and the way back
from dashboard.state.node_choices import NodeChoices, node_choices
from dashboard.views.markdown_text import escape_markdown

SEED_MODES = ("nodes", "question")


def seed_widgets(sidebar, graph: Graph, defaults: GraphDefaults) -> tuple[Seeds, QuestionReading | None]:
    """Seeds picked by id (searchable), or a question read by core.questions.reading into its seeds and query;
    the reading and the matched text are shown. A question it cannot read is said so, with how to ask it; the
    query stays as chosen below (None is returned for the reading)."""
    mode = sidebar.segmented_control("Seeds by", SEED_MODES, default="nodes", key="seed_mode",
                                     bind="query-params") or "nodes"
    fallback = list(defaults.seeds)
    if mode == "question":
        question = sidebar.text_input("Question", value=defaults.question, key="question", bind="query-params")
        try:
            reading = read_question(graph, question)
        except GraphContextError as error:
            sidebar.warning(f"{escape_markdown(str(error))}. The query below stays as it is chosen there.")
            try:
                return seeds_from_question(graph, question), None
            except GraphContextError:
                return seeds_from_ids(graph, fallback), None
        matched = "; ".join(f"“{escape_markdown(match.text)}” → {escape_markdown(match.node_id)} (by "
                            f"{match.matched_by})" for match in reading.seeds.matches)
        sentence = reading.sentence(graph)
        sidebar.caption(escape_markdown(sentence[:1].upper() + sentence[1:])
                        + (f". Matched: {matched}" if matched else ""))
        return (reading.seeds if reading.seeds.node_ids else seeds_from_ids(graph, fallback)), reading
    choices = _node_choices(graph, "seeds", fallback)
    picked = sidebar.multiselect("Seed nodes", choices.options, default=fallback, key="seeds", bind="query-params",
                                 placeholder="Type a node id" if choices.bounded else "Search node ids",
                                 accept_new_options=choices.bounded, help=choices.note or None)
    return seeds_from_ids(graph, _known(sidebar, graph, picked, "Seed") or fallback), None


def _node_choices(graph: Graph, key: str, preset: object) -> NodeChoices:
    """dashboard.state.node_choices, listing first what the session, the URL and the preset hold for `key`."""
    held = [*_as_list(st.session_state.get(key)), *st.query_params.get_all(key), *_as_list(preset)]
    return node_choices(graph, [str(item) for item in held])


def _as_list(value: object) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _known(sidebar, graph: Graph, picked, what: str) -> list[str]:
    """The picked ids that are nodes; a typed id that is not one is named in a warning and left out."""
    unknown = [str(node_id) for node_id in picked if node_id not in graph.node_by_id]
    if unknown:
        named = ", ".join(f"'{escape_markdown(node_id)}'" for node_id in unknown[:5])
        sidebar.warning(f"{what} {named}: not a node id of this graph, left out. Type an id exactly as the graph "
                        "has it.")
    return [node_id for node_id in picked if node_id in graph.node_by_id]


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
    if kind in ("node", "nodes"):
        return _node_parameter_widget(sidebar, graph, kind, key, label, preset)
    options = parameter_choices(graph, template, parameter)
    if kind in ("relation", "type"):
        options = options or [str(preset or "")]
        return sidebar.selectbox(label, options, index=options.index(preset) if preset in options else 0, key=key,
                                 bind="query-params")
    if kind == "number":
        return int(sidebar.number_input(label, 0, 1000, preset, key=key, bind="query-params"))
    return sidebar.text_input(label, value="" if preset is None else str(preset), key=key, bind="query-params")


def _node_parameter_widget(sidebar, graph: Graph, kind: str, key: str, label: str, preset: object) -> object:
    """A node parameter's box: every node, or on a graph with many the chosen and best-connected ones, any id typed."""
    choices = _node_choices(graph, key, preset)
    options = list(choices.options)
    if kind == "nodes":
        picked = sidebar.multiselect(label, options, default=[item for item in _as_list(preset) if item in options],
                                     key=key, bind="query-params", accept_new_options=choices.bounded,
                                     help=choices.note or None)
        return tuple(_known(sidebar, graph, picked, label))
    options = options or [str(preset or "")]
    picked = sidebar.selectbox(label, options, index=options.index(preset) if preset in options else 0, key=key,
                               bind="query-params", accept_new_options=choices.bounded, help=choices.note or None)
    if picked in graph.node_by_id or not graph.nodes:
        return picked
    _known(sidebar, graph, [picked], label)  # a typed id that is no node: said, and the preset used
    return preset
