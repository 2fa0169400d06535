"""The Graph page's picture: a self-contained pyvis page built from an allowlist of escaped node and edge fields.

Safety rules (CONVENTIONS.md, pyvis): never `from_nx` on user data; labels are truncated and
stripped of control characters; titles are HTML-escaped and never contain `href` (which would make
pyvis show every tooltip as HTML); the heading is empty; every resource is inline, and the two
Bootstrap tags pyvis adds from a CDN are removed.
"""

from __future__ import annotations

import html
import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from pyvis.network import Network

from core.graph import Graph
from core.graph_view import GraphView

Survival = Literal["kept", "cut", "absent"]

TIER_COLOURS = ("#d97706", "#2563eb", "#60a5fa", "#a5c8fb")  # seed, 1 hop, 2 hops, 3+ hops
UNREACHED_COLOUR = "#d1d5db"
SHAPES = ("dot", "square", "triangle", "diamond", "star", "triangleDown", "hexagon")
EDGE_STYLES: dict[Survival, tuple[str, bool]] = {  # colour, dashed
    "kept": ("#16a34a", False),
    "cut": ("#dc2626", True),
    "absent": ("#9ca3af", False),
}
LABEL_LIMIT = 32
TITLE_FIELD_LIMIT = 120

_BOOTSTRAP_TAGS = re.compile(r"<link[^>]*bootstrap[^>]*>|<script[^>]*bootstrap[^>]*>\s*</script>", re.S)
_COMMENTS = re.compile(r"<!--.*?-->", re.S)
_EMPTY_HEADINGS = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>")
_HREF = re.compile("href", re.I)
_DATA_SETS = re.compile(r"(new vis\.DataSet\()(.*?)(\);)", re.S)


@dataclass(frozen=True)
class NodeStyle:
    colour: str
    shape: str


def clean_label(text: str, limit: int = LABEL_LIMIT) -> str:
    """Printable text only (control and format characters removed), cut to `limit` characters."""
    printable = "".join(" " if char in "\t\r\n" else char for char in text
                        if char in "\t\r\n" or not unicodedata.category(char).startswith("C"))
    return printable if len(printable) <= limit else printable[: limit - 1] + "…"


def safe_title(lines: list[str]) -> str:
    """Tooltip text: each line cleaned and HTML-escaped; the word `href` is broken so pyvis keeps text mode."""
    escaped = "\n".join(html.escape(clean_label(line, TITLE_FIELD_LIMIT)) for line in lines)
    return _HREF.sub("h-ref", escaped)


SEED_SIZE = 32


def node_caption(node) -> str:
    """A node's label property beside its id (ids alone are bare numbers in a learning graph)."""
    label = dict(node.properties).get("label")
    return f"{label} · {node.id}" if isinstance(label, str) and label and label != node.id else node.id


def tier_colour(hop: float) -> str:
    if math.isinf(hop):
        return UNREACHED_COLOUR
    return TIER_COLOURS[min(int(hop), len(TIER_COLOURS) - 1)]


def type_shapes(graph: Graph) -> dict[str, str]:
    """One shape per node type, assigned in sorted type order (repeating if there are many types)."""
    types = sorted({node.type for node in graph.nodes})
    return {node_type: SHAPES[index % len(SHAPES)] for index, node_type in enumerate(types)}


def graph_page_html(graph: Graph, view: GraphView, hops: Mapping[str, float],
                    survival: Mapping[str, Survival], evidence: frozenset[str] | set[str],
                    positions: Mapping[str, tuple[float, float]] | None = None, height: int = 620) -> str:
    """The complete HTML page for the view; `positions` fixes the layout and turns physics off."""
    network = Network(height=f"{height}px", width="100%", directed=True, cdn_resources="in_line", heading="")
    shapes = type_shapes(graph)
    for node_id in view.node_ids:
        node = graph.node_by_id[node_id]
        hop = hops.get(node_id, math.inf)
        key = f"n:{node_id}"
        options = dict(label=clean_label(node_caption(node)), title=safe_title(_node_lines(node, hop)),
                       color=tier_colour(hop), shape=shapes[node.type],
                       borderWidth=3 if key in evidence else 1)
        if hop == 0:  # the seeds stand out: larger, outlined, bold label
            options.update(size=SEED_SIZE, borderWidth=4, font={"size": 18, "bold": True},
                           color={"background": tier_colour(hop), "border": "#111827"})
        if positions is not None:
            x, y = positions[node_id]
            options.update(x=x, y=y, physics=False)
        network.add_node(node_id, **options)
    for key, edge in view.edges:
        state = survival.get(key, "absent")
        colour, dashed = EDGE_STYLES[state]
        network.add_edge(edge.source, edge.target, color=colour, dashes=dashed,
                         width=3 if key in evidence else 1,
                         title=safe_title([f"{edge.source} -[{edge.relation}]-> {edge.target}", state]))
    if positions is not None:
        network.toggle_physics(False)
    return offline_page(_inert_data(network.generate_html()))


def offline_page(page: str) -> str:
    """pyvis's in-line page without its CDN Bootstrap tags, commented-out links and empty headings."""
    page = _BOOTSTRAP_TAGS.sub("", page)
    page = _COMMENTS.sub("", page)
    return _EMPTY_HEADINGS.sub("", page)


def _inert_data(page: str) -> str:
    """Write `=` in the node and edge data as the JSON escape \\u003d (the same character to JavaScript).

    pyvis's `tojson` already escapes `<`, `>` and `&`; with `=` escaped too, no attribute-like text
    such as `onerror=` from a label appears anywhere in the page, not even inside a string.
    """
    return _DATA_SETS.sub(lambda match: match.group(1) + match.group(2).replace("=", "\\u003d") + match.group(3), page)


def _node_lines(node, hop: float) -> list[str]:
    hop_text = "not reached from the seeds" if math.isinf(hop) else f"{int(hop)} hop(s) from the seeds"
    lines = [node.id, f"type: {node.type}", hop_text]
    lines.extend(f"{key}: {value}" for key, value in node.properties[:8])
    return lines


def legend_html(graph: Graph) -> str:
    """Legend for tiers, shapes and edge styles; type names are escaped."""
    tiers = [("seed", TIER_COLOURS[0]), ("1 hop", TIER_COLOURS[1]), ("2 hops", TIER_COLOURS[2]),
             ("3+ hops", TIER_COLOURS[3]), ("not reached", UNREACHED_COLOUR)]
    chips = [f'<span style="display:inline-block;width:0.8em;height:0.8em;border-radius:50%;'
             f'background:{colour};margin:0 0.3em 0 0.8em"></span>{label}' for label, colour in tiers]
    shapes = [f"{html.escape(clean_label(node_type))}: {shape}" for node_type, shape in type_shapes(graph).items()]
    edges = [f'<span style="color:{colour};font-weight:bold">{"- - -" if dashed else "———"}</span> {state}'
             for state, (colour, dashed) in (("kept", EDGE_STYLES["kept"]), ("cut", EDGE_STYLES["cut"]),
                                              ("not in the context", EDGE_STYLES["absent"]))]
    return ('<div style="font-size:0.85em;line-height:1.8">'
            f'<div><b>Hop tier</b>{"".join(chips)}</div>'
            f'<div><b>Shape by type</b> {" · ".join(shapes)}</div>'
            f'<div><b>Edges at this budget</b> {" &nbsp; ".join(edges)}; thick = evidence of the query</div>'
            "</div>")


PICTURE_TITLE = "Graph picture"
SANDBOX = "allow-scripts"  # scripts only: the picture runs in an opaque origin and cannot reach the app


def sandboxed_page(page: str, height: int) -> str:
    """A script-free page holding `page` in an iframe sandboxed with scripts only.

    Streamlit's st.iframe always sandboxes with `allow-scripts allow-same-origin` (and more), which lets a
    script inside reach the app. This outer page runs no script; the picture's scripts run in the inner
    frame, whose sandbox has no `allow-same-origin`, so they get an opaque origin.
    """
    return ("<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0'>"
            f'<iframe title="{PICTURE_TITLE}" sandbox="{SANDBOX}" style="border:0;width:100%;height:{int(height) + 20}px" '
            f'srcdoc="{html.escape(page, quote=True)}"></iframe></body></html>')


def inner_page(outer: str) -> str:
    """The picture's page inside a `sandboxed_page` (what the tests read)."""
    match = re.search(r'srcdoc="(.*?)"></iframe>', outer, re.S)
    return html.unescape(match.group(1)) if match else ""
