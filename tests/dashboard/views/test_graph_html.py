"""The Graph page's vis-network HTML is offline and never lets graph text become markup."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from core.graph.model import Edge, Graph, Node
from core.graph.view import layout_positions, select_view
from dashboard.views.graph_html import (
    FIT_MARGIN,
    FRAME_WIDTH_PX,
    LABEL_CHARACTER_PX,
    LABEL_LINE_PX,
    LABELLED_NODES,
    SEED_SIZE,
    clean_label,
    graph_page_html,
    labelled_nodes,
    legend_html,
    safe_title,
    script_json,
    vis_network_files,
)
from tests.strategies import graphs

HOSTILE = "<img src=x onerror=alert(1)></script><script>alert(2)</script>"


def hostile_graph() -> Graph:
    nodes = [Node(HOSTILE, "<b>type</b>", (("image", "https://example.com/x.png"), ("note", "href=javascript:1"))),
             Node("plain", "service", (("url", "http://tracker.example/p"),))]
    return Graph.build(nodes, [Edge(HOSTILE, "<i>rel</i>", "plain")])


def data_section(page: str) -> str:
    """The two vis.DataSet literals, where graph text ends up."""
    return "\n".join(re.findall(r"new vis\.DataSet\((.*?)\);", page, re.S))


def external_links(page: str) -> list[str]:
    return re.findall(r"""(?:src|href)\s*=\s*["']?\s*https?://""", page, re.I)


def benign_page() -> str:
    graph = Graph.build([Node("a", "t")], [])
    return graph_page_html(graph, select_view(graph, {}), {}, {}, frozenset())


def test_hostile_text_never_becomes_markup_and_nothing_is_fetched():
    graph = hostile_graph()
    view = select_view(graph, {"plain": 0})
    page = graph_page_html(graph, view, {"plain": 0}, {}, frozenset())
    data = data_section(page)
    assert HOSTILE not in page and "<" not in data and "href" not in data and "onerror=" not in data
    # The inline vis-network library has its own `<script` tags and `image.onerror=` handlers;
    # the hostile graph adds none.
    for marker in ("<script", "<img", "onerror="):
        assert page.lower().count(marker) == benign_page().lower().count(marker)
    assert external_links(page) == []


@given(graphs(max_nodes=5, max_edges=6))
def test_any_graph_gives_an_offline_page_without_raw_tags(graph):
    view = select_view(graph, {})
    page = graph_page_html(graph, view, {}, {}, frozenset(), layout_positions(view))
    data = data_section(page)
    assert "<" not in data and external_links(page) == []
    assert "bootstrap" not in page


def test_labels_lose_control_characters_and_are_truncated():
    assert clean_label("a\x00b\u200bc\nd") == "abc d"
    assert clean_label("x" * 100, 10) == "x" * 9 + "…"


def test_titles_are_escaped_and_never_say_href():
    title = safe_title(['<a HREF="http://x">', "ok"])
    assert "<" not in title and "href" not in title.lower() and title.endswith("\nok")


def test_fixed_positions_turn_physics_off():
    graph = hostile_graph()
    view = select_view(graph, {})
    page = graph_page_html(graph, view, {}, {}, frozenset(), layout_positions(view))
    assert re.search(r'"physics":\s*\{\s*"enabled":\s*false', page)


def test_edges_are_styled_by_survival_and_evidence_is_thick():
    graph = Graph.build([Node("a", "t"), Node("b", "t"), Node("c", "t")],
                        [Edge("a", "r", "b"), Edge("b", "r", "c")])
    view = select_view(graph, {"a": 0})
    page = graph_page_html(graph, view, {"a": 0, "b": 1, "c": 2},
                           {"e:a|r|b": "kept", "e:b|r|c": "cut"}, frozenset({"e:b|r|c"}))
    data = data_section(page)
    assert re.search(r'"color": \{"color": "#16a34a", "opacity": 1.0\}, "dashes": false, "from": "a"', data)
    assert re.search(r'"color": \{"color": "#dc2626", "opacity": 1.0\}, "dashes": true, "from": "b"[^}]*"width": 3',
                     data)


def test_the_legend_escapes_type_names():
    assert "<b>type</b>" not in legend_html(hostile_graph())
    assert "&lt;b&gt;type&lt;/b&gt;" in legend_html(hostile_graph())


def test_labels_stand_beside_ids_and_the_seeds_stand_out():
    graph = Graph.build([Node("12", "SDK", (("label", "Tensorrt"),)), Node("4", "SDK")], [Edge("12", "depends_on", "4")])
    page = graph_page_html(graph, select_view(graph, {"12": 0, "4": 1}), {"12": 0, "4": 1}, {}, frozenset())
    data = data_section(page)
    assert '"label": "Tensorrt \\u00b7 12"' in data or '"label": "Tensorrt · 12"' in data
    assert '"label": "4"' in data
    assert data.count(f'"size": {SEED_SIZE}') == 1  # only the seed is drawn larger


def test_a_fixed_layout_labels_the_seeds_and_the_nearest_nodes_only():
    leaves = [f"leaf-{number:03d}" for number in range(LABELLED_NODES + 20)]
    graph = Graph.build([Node("hub", "t"), *(Node(leaf, "t") for leaf in leaves)],
                        [Edge("hub", "r", leaf) for leaf in leaves])
    hops = {"hub": 0, **dict.fromkeys(leaves, 1)}
    view = select_view(graph, hops)
    page = graph_page_html(graph, view, hops, {}, frozenset(), layout_positions(view))
    labels = re.findall(r'"label": "([^"]*)"', data_section(page))
    assert labels[:2] == ["hub", "leaf-000"] and len(labels) == len(leaves) + 1
    assert 1 < len(set(labels) - {""}) <= LABELLED_NODES
    assert f'leaf-{len(leaves) - 1:03d}' in data_section(page)  # still named, on hover


def label_boxes(graph, view, hops, positions, height=620):
    """Each written label's box in pixels once the picture is fitted to the frame, as labelled_nodes reckons it."""
    xs, ys = zip(*positions.values(), strict=True)
    scale = min(1.0, FIT_MARGIN * min(FRAME_WIDTH_PX / (max(xs) - min(xs)), height / (max(ys) - min(ys))))
    boxes = []
    for node_id in labelled_nodes(graph, view, hops, positions, height):
        size = 4 / 3 if hops.get(node_id) == 0 else 1.0
        x, y = positions[node_id]
        boxes.append((x * scale, y * scale, (len(node_id) * LABEL_CHARACTER_PX * size + 12) / 2,
                      LABEL_LINE_PX * size / 2))
    return boxes


def test_no_two_written_labels_overprint_on_a_crowded_ring_and_the_seed_is_always_written():
    leaves = [f"service-number-{number:03d}" for number in range(300)]
    graph = Graph.build([Node("hub", "t"), *(Node(leaf, "t") for leaf in leaves)],
                        [Edge("hub", "r", leaf) for leaf in leaves])
    hops = {"hub": 0, **dict.fromkeys(leaves, 1)}
    view = select_view(graph, hops)
    positions = layout_positions(view)
    chosen = labelled_nodes(graph, view, hops, positions)
    assert chosen[0] == "hub" and 1 < len(chosen) < LABELLED_NODES  # a 300-node ring has room for a few only
    boxes = label_boxes(graph, view, hops, positions)
    for index, (x, y, width, height) in enumerate(boxes):
        for other_x, other_y, other_width, other_height in boxes[index + 1:]:
            assert abs(x - other_x) >= width + other_width - 1e-6 or abs(y - other_y) >= height + other_height - 1e-6


@given(st.recursive(st.text() | st.integers() | st.booleans() | st.none(),
                    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children, max_size=3),
                    max_leaves=8))
def test_script_json_is_the_same_value_and_never_markup(value):
    written = script_json(value)
    assert json.loads(written) == value
    assert not set(written) & {"<", ">", "&", "=", "\u2028", "\u2029"}


def test_the_page_inlines_the_vis_network_files_pyvis_ships():
    library, stylesheet = vis_network_files()
    assert "vis-network" in library[:400] and ".vis-network" in stylesheet
    page = benign_page()
    assert library in page and stylesheet in page
    assert page.count("new vis.Network(") == 1 and page.count("new vis.DataSet(") == 2


def test_unreached_nodes_of_a_large_view_are_never_labelled_and_a_small_view_labels_all():
    leaves = [f"leaf-{number:03d}" for number in range(LABELLED_NODES)]
    strays = [f"stray-{number:03d}" for number in range(10)]
    graph = Graph.build([Node("hub", "t"), *(Node(name, "t") for name in leaves + strays)],
                        [Edge("hub", "r", leaf) for leaf in leaves])
    hops = {"hub": 0, **dict.fromkeys(leaves, 1)}
    view = select_view(graph, hops)
    page = data_section(graph_page_html(graph, view, hops, {}, frozenset(), layout_positions(view)))
    assert all(f'"label": "{stray}"' not in page for stray in strays)
    small = Graph.build([Node("a", "t"), Node("b", "t")], [])
    small_page = data_section(graph_page_html(small, select_view(small, {"a": 0}), {"a": 0}, {}, frozenset(),
                                              layout_positions(select_view(small, {"a": 0}))))
    assert '"label": "b"' in small_page  # unreached, but a small view has room for every label
