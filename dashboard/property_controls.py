"""The sidebar's property filter: keep or drop node and edge properties before any format renders them, with the
exact tokens saved per shown format, refused (by name) when the query needs a property it drops."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.property_savings import check_needed_properties, property_savings
from core.errors import GraphContextError
from core.graph.model import Graph
from core.graph.property_filter import PropertyFilter, filter_properties
from core.queries import Query
from dashboard.views.markdown_text import escape_markdown

KEYS = ("keep_properties", "drop_properties")


def patterns(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


@st.cache_data(max_entries=16, show_spinner=False)
def _savings(key: tuple, _graph: Graph, _filtered: Graph, formats: tuple[str, ...], tokenizer: str) -> pd.DataFrame:
    return pd.DataFrame([{"format": saving.format, "tokens before": saving.tokens_before,
                          "tokens after": saving.tokens_after, "saved": saving.saved}
                         for saving in property_savings(_graph, _filtered, formats, tokenizer)])


@st.cache_resource(max_entries=8, show_spinner=False)
def _filtered(key: tuple, _graph: Graph, _chosen: PropertyFilter) -> Graph:
    return filter_properties(_graph, _chosen)


def filtering() -> bool:
    """Whether this run's property filter may be active, read before the control is drawn (from the session, or
    from the URL on a first run)."""
    return any(st.session_state.get(key) or st.query_params.get(key) for key in KEYS)


def property_filter_controls(sidebar, graph: Graph, query: Query, formats: tuple[str, ...], tokenizer: str) -> Graph:
    """Draw the control; return the graph with the properties it keeps (the graph itself when it filters none,
    or when it would drop a property the query needs: then it says which)."""
    with sidebar.expander("Properties rendered"):
        keep = st.text_input("Keep only (names or wildcards, comma-separated)", key=KEYS[0], bind="query-params",
                             help="e.g. label, node:*_id; empty: keep every property. node: or edge: limits a "
                                  "pattern to one kind")
        drop = st.text_input("Drop", key=KEYS[1], bind="query-params", help="e.g. embedding*, edge:weight")
        try:
            chosen = PropertyFilter(patterns(keep or ""), patterns(drop or ""))
            if not chosen.active:
                return graph
            check_needed_properties(graph, chosen, [query])
        except GraphContextError as error:
            st.error(escape_markdown(str(error)), icon="🚫")
            return graph
        key = (graph.content_key, chosen)
        filtered = _filtered(key, graph, chosen)
        st.caption(f"{escape_markdown(chosen.describe())}: the complete rendering's {tokenizer} tokens")
        st.dataframe(_savings((*key, formats, tokenizer), graph, filtered, formats, tokenizer), hide_index=True,
                     key="property_savings")
        return filtered
