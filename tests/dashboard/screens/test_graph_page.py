"""The Graph page holds still: a budget change recolours nodes and edges, and moves none of them."""

from __future__ import annotations

import json
import re

from dashboard.views.graph_html import inner_page
from tests.dashboard.conftest import on_page, started


def drawn(app) -> tuple[dict, dict]:
    """The nodes and edges the page's picture draws, by id and by (source, target)."""
    page = inner_page(app.get("iframe")[0].proto.srcdoc)
    nodes = json.loads(re.search(r"new vis\.DataSet\((\[.*?\])\);\nvar edges", page, re.S).group(1))
    edges = json.loads(re.search(r"var edges = new vis\.DataSet\((\[.*?\])\);", page, re.S).group(1))
    return ({node["id"]: node for node in nodes}, {(edge["from"], edge["to"], edge["title"].split("\n")[0]): edge
                                                    for edge in edges})


def test_a_budget_change_recolours_the_graph_and_moves_no_node():
    app = on_page(started(), "graph")
    nodes, edges = drawn(app)
    app.main.number_input(key="budget").set_value(4000).run()
    later_nodes, later_edges = drawn(app)
    assert {node_id: (node["x"], node["y"]) for node_id, node in nodes.items()} == \
        {node_id: (node["x"], node["y"]) for node_id, node in later_nodes.items()}
    assert all(node.get("physics") is False for node in later_nodes.values())
    changed = [key for key in edges if edges[key]["color"] != later_edges[key]["color"]]
    assert changed, "a larger budget keeps more edges: some must turn from cut to kept"
    assert [node_id for node_id in nodes if nodes[node_id]["color"] != later_nodes[node_id]["color"]]


def test_kept_cut_and_absent_are_styled_alike_on_nodes_and_edges():
    app = on_page(started(), "graph")  # nodes before edges: at the default budget some node records are cut
    nodes, _edges = drawn(app)
    app.main.number_input(key="budget").set_value(2500).run()  # past the node records: some edges kept, some cut
    _nodes, edges = drawn(app)
    node_borders = {node["color"]["border"] for node in nodes.values()}
    edge_colours = {edge["color"]["color"] for edge in edges.values()}
    assert {"#16a34a", "#dc2626"} <= node_borders and {"#16a34a", "#dc2626"} <= edge_colours
    assert {node["shapeProperties"]["borderDashes"] is not False for node in nodes.values()
            if node["color"]["border"] == "#dc2626"} == {True}
    assert {edge["dashes"] for edge in edges.values() if edge["color"]["color"] == "#dc2626"} == {True}
