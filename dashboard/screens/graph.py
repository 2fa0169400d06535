"""Graph page: the graph by hop tier from the seeds, node shapes by type, edges by survival at the budget."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from core.budget.policies import cut, unit_survival
from core.formats import FORMATS
from dashboard import cache
from dashboard.renderings import accounting_for
from dashboard.sidebar import Selection, budget_controls, current, format_label
from dashboard.views.graph_html import Survival, graph_page_html, labelled_nodes, legend_html, sandboxed_page
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
    tiers = {node: float(hop) for node, hop in hops.items()}
    labelled = len(labelled_nodes(graph, view, tiers, positions, HEIGHT))
    st.caption("Positions are computed once per graph (a seeded layout, kept), so a budget change only recolours: "
               "watch which border or edge turns red."
               + (f" {labelled:,} of the {len(view.node_ids):,} nodes are labelled: the seeds, then the nodes nearest "
                  "them whose label has room; point at any node for its label and id."
                  if labelled < len(view.node_ids) else ""))
    evidence = selection.evidence
    page = graph_page_html(graph, view, tiers, edge_survival(selection, format_name), evidence, positions, HEIGHT)
    st.iframe(sandboxed_page(page, HEIGHT), height=HEIGHT + 30, alt="Graph view by hop tier")
    st.html(legend_html(graph))


if __name__ == "__main__":  # run as a page by st.navigation
    show()
