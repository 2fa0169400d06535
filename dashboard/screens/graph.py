"""Graph page: the graph by hop tier from the seeds, node shapes by type, edges by survival at the budget."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from core.budget.policies import cut, unit_survival
from core.formats import FORMATS
from dashboard import cache
from dashboard.renderings import accounting_for
from dashboard.sidebar import Selection, budget_controls, current, format_label
from dashboard.views.graph_html import LABELLED_NODES, Survival, graph_page_html, legend_html, sandboxed_page
from dashboard.views.markdown_text import escape_markdown

HEIGHT = 620


def edge_survival(selection: Selection, format_name: str) -> dict[str, Survival]:
    """Each unit key of the inspected rendering: kept at the budget, or cut."""
    accounting = accounting_for(selection, format_name)
    return unit_survival(accounting, cut(accounting, FORMATS.get(format_name), selection.policy, selection.budget))


def show() -> None:
    selection = current()
    st.title("Graph")
    format_name = st.selectbox("Edges styled by what survives in", selection.formats, format_func=format_label,
                               key="graph_format", bind="query-params")
    st.caption(f"{escape_markdown(selection.loaded.label)} · seeds "
               f"{escape_markdown(', '.join(selection.seeds.node_ids))} · {selection.policy} policy, "
               f"{selection.ordering} ordering")
    at_budget(selection, format_name)


@st.fragment
def at_budget(selection: Selection, format_name: str) -> None:
    """The budget controls and the picture they restyle: moving the budget reruns only this."""
    graph = selection.graph
    slider, number = st.columns([4, 1], vertical_alignment="bottom")
    selection = replace(selection, budget=budget_controls(slider, selection.budget_limit, number))
    hops = cache.seed_hops(graph.content_key, graph, selection.seeds.node_ids)
    view, positions = cache.graph_view(graph.content_key, graph, repr(selection.seeds.node_ids), hops)
    if not view.complete:
        radius = ("no complete hop tier" if view.full_radius < 0 else
                  f"every node within {int(view.full_radius)} hop(s) of the seeds")
        st.info(f"The graph has {view.total_nodes:,} nodes; showing {len(view.node_ids):,} nearest the seeds "
                f"({radius}, then the nearest others by id) and the {len(view.edges):,} edges among them.")
    if positions is not None:
        st.caption(f"Positions are computed in Python (physics is off above 150 nodes). The seeds and the "
                   f"{LABELLED_NODES} nodes nearest them are labelled; point at any node for its label and id.")
    evidence = selection.evidence
    page = graph_page_html(graph, view, {node: float(hop) for node, hop in hops.items()},
                           edge_survival(selection, format_name), evidence, positions, HEIGHT)
    st.iframe(sandboxed_page(page, HEIGHT), height=HEIGHT + 30, alt="Graph view by hop tier")
    st.html(legend_html(graph))


if __name__ == "__main__":  # run as a page by st.navigation
    show()
