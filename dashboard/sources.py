"""The sidebar's graph source: a bundled sample, an uploaded file with its options, a generator, or a FalkorDB database.

A source that fails (a hostile upload, bad generator parameters) shows core's message in an error
panel and the previous graph stays loaded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import streamlit as st

from core.errors import GraphContextError
from core.graph.model import Graph
from core.io import LoadOptions, format_names
from core.io.falkordb_source import (
    DEFAULT_HOPS,
    DEFAULT_PORT,
    MAX_HOPS,
    PASSWORD_VARIABLE,
    DatabaseSource,
    read_database,
)
from core.io.generate import GENERATORS, generator_parameters, parameter_limit
from core.io.samples import Sample, default_sample, get_sample, sample_names
from dashboard import cache

# Bound widgets write their option's displayed text into the URL, so options are shown as their names.
SOURCE_KINDS = ("sample", "upload", "generator", "database")
AUTO = "detect"
GENERATOR_INTEGER_LIMIT = 100_000  # keeps a typo from generating a graph the machine cannot hold


@dataclass(frozen=True)
class LoadedGraph:
    graph: Graph
    label: str  # what the graph is, for captions ("sample: services", "upload: x.graphml")
    sample: Sample | None = None  # a sample brings its own seeds and question


def graph_source(sidebar) -> LoadedGraph:
    """Draw the source widgets; return the chosen graph, or the previous one if the choice fails."""
    kind = sidebar.segmented_control("Graph source", SOURCE_KINDS, default="sample", key="source",
                                     bind="query-params") or "sample"
    try:
        loaded = {"sample": _sample, "upload": _upload, "generator": _generator, "database": _database}[kind](sidebar)
    except GraphContextError as error:
        st.session_state["source_error"] = str(error)
        return st.session_state.get("loaded_graph") or _default_sample()
    if loaded is None:  # nothing uploaded (or read from the database) yet
        return st.session_state.get("loaded_graph") or _default_sample()
    st.session_state.pop("source_error", None)
    st.session_state["loaded_graph"] = loaded
    return loaded


def source_error() -> str | None:
    """Core's message for the last failed source, shown in the main area's error panel."""
    return st.session_state.get("source_error")


def _default_sample() -> LoadedGraph:
    return _loaded_sample(default_sample().name)


def _loaded_sample(name: str) -> LoadedGraph:
    sample = get_sample(name)
    return LoadedGraph(cache.sample_graph(name), f"sample: {sample.title}", sample)


def _sample(sidebar) -> LoadedGraph:
    names = sample_names()
    name = sidebar.selectbox("Sample graph", names, index=names.index(default_sample().name), key="sample",
                             bind="query-params")
    sidebar.caption(f"**{get_sample(name).title}**: {get_sample(name).story}")
    return _loaded_sample(name)


def _upload(sidebar) -> LoadedGraph | None:
    upload = sidebar.file_uploader("Graph file", key="upload_file",
                                   help="GraphML, GEXF, GML, Pajek, node-link JSON, CSV edge list, learning-graph CSV, "
                                        "or any lossless format of this lab")
    with sidebar.expander("File options"):
        format = st.selectbox("Format", [AUTO] + format_names(), key="upload_format")
        options = LoadOptions(
            node_type_attribute=st.text_input("Node type attribute (GraphML, GML, JSON)", key="upload_type") or None,
            relation_attribute=st.text_input("Relation attribute", key="upload_relation") or None,
            duplicates=st.selectbox("Duplicate node ids", ["reject", "merge"], key="upload_duplicates"),
            missing_endpoints=st.selectbox("Edges to undeclared nodes", ["reject", "create"],
                                           key="upload_missing"))
        nodes = st.file_uploader("Nodes table (for a CSV edge list)", key="upload_nodes")
    if upload is None:
        return None
    graph = cache.uploaded_graph(upload.getvalue(), upload.name, None if format == AUTO else format, options,
                                 nodes.getvalue() if nodes is not None else None)
    return LoadedGraph(graph, f"upload: {upload.name}")


def generator_key(name: str, parameter: str) -> str:
    return f"{name}_{parameter}"


def generator_keys() -> list[str]:
    """The session-state keys of every generator's parameter widgets (each bound to the URL)."""
    return ["generator"] + [generator_key(name, parameter) for name in GENERATORS.names()
                            for parameter in generator_parameters(GENERATORS.get(name))]


def _generator(sidebar) -> LoadedGraph:
    name = sidebar.selectbox("Generator", GENERATORS.names(), key="generator", bind="query-params")
    function = GENERATORS.get(name)
    sidebar.caption((function.__doc__ or "").strip().splitlines()[0])
    arguments = {}
    for parameter, default in generator_parameters(function).items():
        fraction = isinstance(default, float)
        arguments[parameter] = sidebar.number_input(
            parameter.replace("_", " ").capitalize(), min_value=0.0 if fraction else 0,
            max_value=1.0 if fraction else parameter_limit(name, parameter) or GENERATOR_INTEGER_LIMIT, value=default, step=0.05 if fraction else 1,
            key=generator_key(name, parameter), bind="query-params")
    graph = cache.generated_graph(name, tuple(sorted(arguments.items())))
    described = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in arguments.items())
    return LoadedGraph(graph, f"generated {name}: {described}")


def _database(sidebar) -> LoadedGraph | None:
    """A FalkorDB graph: what the query returns, read when asked (a database read is not repeated every rerun).

    The password comes from the field (kept in this browser session only: never in the URL, the
    cache key or a caption) or from the server's environment variable FALKORDB_PASSWORD.
    """
    host = sidebar.text_input("Database host", value="127.0.0.1", key="database_host")
    port = sidebar.number_input("Port", min_value=1, max_value=65535, value=DEFAULT_PORT, step=1, key="database_port")
    graph_name = sidebar.text_input("Graph name", key="database_graph")
    seeds = sidebar.text_input("Seed ids (comma-separated)", key="database_seeds",
                               help="the default query reads the neighbourhood of these nodes (their `id` property); "
                                    "without seeds it reads the whole graph")
    hops = sidebar.number_input("Hops around the seeds", min_value=0, max_value=MAX_HOPS, value=DEFAULT_HOPS, step=1,
                                key="database_hops")
    query = sidebar.text_area("Cypher query (read-only; empty: the default)", key="database_query",
                              help="any MATCH ... RETURN query: its nodes, relationships and paths become the graph")
    password = sidebar.text_input("Password (this session only)", type="password", key="database_password",
                                  help=f"empty: the server's {PASSWORD_VARIABLE} environment variable, if set")
    asked = sidebar.button("Read the graph", key="database_read")
    if not graph_name.strip():
        sidebar.caption("Name the graph to read (GRAPH.LIST on the server lists them).")
        return None
    source = DatabaseSource(host.strip(), int(port), graph_name.strip(), query if query.strip() else None,
                            tuple(part.strip() for part in seeds.split(",") if part.strip()), int(hops))
    known = st.session_state.get("database_loaded")
    if known is not None and known[0] == source and not asked:
        return known[1]
    if not asked:
        return None
    graph = read_database(source, password=password or os.environ.get(PASSWORD_VARIABLE))
    loaded = LoadedGraph(graph, f"database: {source.url}" + (f" around {', '.join(source.seeds)}" if source.seeds else ""))
    st.session_state["database_loaded"] = (source, loaded)
    return loaded
