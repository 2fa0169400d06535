"""The Graph page's picture: a self-contained vis-network page built from an allowlist of escaped node and edge fields.

The page comes from this module's own small template (`PAGE`): the vis-network script and stylesheet
are read from the files the installed pyvis package ships, and inlined, so the page loads nothing from
the network. Graph text reaches the page only as JSON inside the script (`script_json`), with every
character that could end the script or look like markup or an attribute written as a JSON escape.

Safety rules (CONVENTIONS.md, pyvis): nodes are built from an allowlist of fields, never from every
attribute; labels are truncated and stripped of control characters; titles are HTML-escaped and
never contain `href`; there is no heading and no CDN tag.
"""

from __future__ import annotations

import html
import json
import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from string import Template
from typing import Literal

from core.graph.model import Graph
from core.graph.view import GraphView

Survival = Literal["kept", "cut", "absent"]

TIER_COLOURS = ("#d97706", "#2563eb", "#60a5fa", "#a5c8fb")  # seed, 1 hop, 2 hops, 3+ hops
UNREACHED_COLOUR = "#d1d5db"
SHAPES = ("dot", "square", "triangle", "diamond", "star", "triangleDown", "hexagon")
EDGE_STYLES: dict[Survival, tuple[str, bool]] = {  # colour, dashed
    "kept": ("#16a34a", False),
    "cut": ("#dc2626", True),
    "absent": ("#9ca3af", False),
}
SURVIVAL_WORDS: dict[Survival, str] = {"kept": "kept", "cut": "cut", "absent": "not in the context"}
LABEL_LIMIT = 32
TITLE_FIELD_LIMIT = 120

_HREF = re.compile("href", re.I)


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


SEED_SIZE = 26
NODE_SIZE = 14
# In a fixed layout (hundreds of nodes in rings) every label would overprint its neighbours: at most this many,
# nearest the seeds first, and only where they overprint no other (labelled_nodes); every node shows its label
# and id on hover.
LABELLED_NODES = 60


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


# vis-network fits the picture's extent into its frame: at 1280 px the Graph page's frame is about 800 px wide.
# A label is written at 14 px, about 7.5 px a character and 18 px a line (the seeds' larger labels a third more);
# a label's box has 12 px more each way, so two labels never touch.
FRAME_WIDTH_PX = 800
LABEL_CHARACTER_PX = 7.5
LABEL_LINE_PX = 18 + 12
FIT_MARGIN = 0.9


def fitted_scale(view: GraphView, positions: Mapping[str, tuple[float, float]], height: int) -> float:
    """Pixels per layout unit once vis-network fits the picture into its frame (with its margin of about a tenth;
    measured: a 916-unit-wide ring of 293 nodes drawn 562 px wide), never more than 1:1."""
    xs, ys = zip(*(positions[node_id] for node_id in view.node_ids), strict=True)
    return min(1.0, FIT_MARGIN * min(FRAME_WIDTH_PX / max(max(xs) - min(xs), 1.0),
                                     height / max(max(ys) - min(ys), 1.0)))


def labelled_nodes(graph: Graph, view: GraphView, hops: Mapping[str, float],
                   positions: Mapping[str, tuple[float, float]] | None = None, height: int = 620) -> list[str]:
    """The nodes whose label is written, seeds first. Candidates: every node of a small view; else the seeds and
    the reached nodes nearest them (the view lists them first), up to LABELLED_NODES (an unreached node shows its
    label on hover). With fixed positions a candidate is labelled only where its label overprints no label
    already written (the seeds' always are): on a 300-node graph the 60 nearest labels printed into one cluster."""
    if len(view.node_ids) <= LABELLED_NODES:
        candidates = list(view.node_ids)
    else:
        candidates = [node_id for node_id in view.node_ids if not math.isinf(hops.get(node_id, math.inf))]
    seeds = [node_id for node_id in candidates if hops.get(node_id) == 0]
    others = sorted((node_id for node_id in candidates if hops.get(node_id) != 0),  # nearest tiers first
                    key=lambda node_id: hops.get(node_id, math.inf))
    if positions is None:
        return seeds + others[:max(0, LABELLED_NODES - len(seeds))]
    scale = fitted_scale(view, positions, height)
    written: list[tuple[float, float, float, float]] = []  # centre x, centre y, half width, half height (units)
    chosen: list[str] = []
    for node_id in seeds + others:
        enlarged = 4 / 3 if node_id in seeds else 1.0
        half_width = (len(clean_label(node_caption(graph.node_by_id[node_id]))) * LABEL_CHARACTER_PX * enlarged
                      + 12) / scale / 2
        half_height = LABEL_LINE_PX * enlarged / scale / 2
        x, y = positions[node_id]
        clear = all(abs(x - other_x) >= half_width + other_width or abs(y - other_y) >= half_height + other_height
                    for other_x, other_y, other_width, other_height in written)
        if node_id in seeds or (clear and len(chosen) < LABELLED_NODES):
            written.append((x, y, half_width, half_height))
            chosen.append(node_id)
    return chosen


def graph_page_html(graph: Graph, view: GraphView, hops: Mapping[str, float],
                    survival: Mapping[str, Survival], evidence: frozenset[str] | set[str],
                    positions: Mapping[str, tuple[float, float]] | None = None, height: int = 620) -> str:
    """The complete HTML page for the view; `positions` fixes the layout and turns physics off.

    Nodes and edges carry what the cut did to them in the same style: kept (green, solid), cut (red, dashed),
    not in the context (grey, faded); the fill is the hop tier, the shape the node type."""
    shapes = type_shapes(graph)
    labelled = set(labelled_nodes(graph, view, hops, positions, height))
    # Fonts in layout units that read at 14 px (the seeds' at 18) once the picture is fitted: a 300-node picture
    # is drawn at about 0.6 px a unit, where a 14-unit font read 8 px.
    enlarge = 1 / fitted_scale(view, positions, height) if positions else 1.0
    nodes = []
    for node_id in view.node_ids:
        node = graph.node_by_id[node_id]
        hop = hops.get(node_id, math.inf)
        key = f"n:{node_id}"
        state = survival.get(key, "absent")
        border, dashed = EDGE_STYLES[state]
        options = dict(id=node_id, label=clean_label(node_caption(node)) if node_id in labelled else "",
                       title=safe_title([*_node_lines(node, hop), f"at this budget: {SURVIVAL_WORDS[state]}"]),
                       color={"background": tier_colour(hop), "border": border}, shape=shapes[node.type],
                       borderWidth=4 if key in evidence else 2, shapeProperties={"borderDashes": dashed and [4, 3]},
                       opacity=0.35 if state == "absent" else 1.0, size=NODE_SIZE,
                       font={"size": round(14 * enlarge), "strokeWidth": 3, "strokeColor": "#ffffff"})
        if hop == 0:  # the seeds stand out: larger, bold label
            options.update(size=SEED_SIZE, borderWidth=5, font={"size": round(18 * enlarge), "bold": True,
                                                                "strokeWidth": 3,
                                                                "strokeColor": "#ffffff"})
        if positions is not None:
            x, y = positions[node_id]
            options.update(x=x, y=y, physics=False)
        nodes.append(options)
    edges = []
    for key, edge in view.edges:
        state = survival.get(key, "absent")
        colour, dashed = EDGE_STYLES[state]
        edges.append({"from": edge.source, "to": edge.target, "arrows": "to",
                      "color": {"color": colour, "opacity": 0.35 if state == "absent" else 1.0}, "dashes": dashed,
                      "width": 3 if key in evidence else 1,
                      "title": safe_title([f"{edge.source} -[{edge.relation}]-> {edge.target}",
                                           f"at this budget: {SURVIVAL_WORDS[state]}"])})
    return network_page(nodes, edges, physics=positions is None, height=height)


# vis-network options: the defaults pyvis used, physics only while the layout is not fixed.
def network_options(physics: bool) -> dict:
    return {"configure": {"enabled": False},
            # Dynamic smoothing hangs invisible support nodes on physics; a fixed picture uses plain curves.
            "edges": {"color": {"inherit": True}, "smooth": {"enabled": True,
                                                             "type": "dynamic" if physics else "continuous"}},
            "interaction": {"dragNodes": True, "hideEdgesOnDrag": False, "hideNodesOnDrag": False},
            "physics": {"enabled": physics, "stabilization": {"enabled": True, "fit": True, "iterations": 1000,
                                                              "onlyDynamicEdges": False, "updateInterval": 50}}}


# The page: no heading, no external resource; $-placeholders are filled by network_page only.
PAGE = Template("""<!doctype html>
<html><head><meta charset="utf-8"><title>Graph picture</title>
<style>$stylesheet</style>
<style>html, body { margin: 0 } #network { box-sizing: border-box; width: 100%; height: ${height}px; border: 1px solid lightgray; background: #ffffff }</style>
<script>$library</script>
</head><body><div id="network"></div>
<script>
var nodes = new vis.DataSet($nodes);
var edges = new vis.DataSet($edges);
var network = new vis.Network(document.getElementById("network"), {nodes: nodes, edges: edges}, $options);
</script>
</body></html>
""")

# Characters written as JSON escapes inside the script: `<` and `>` (no `</script>` or tag can form), `&`
# (no entity), `=` (no attribute-like text such as `onerror=` appears anywhere in the page, even in a
# string) and the two JavaScript line terminators. Outside strings JSON never contains any of them.
_SCRIPT_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "=": "\\u003d",
                                 "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(value: object) -> str:
    """`value` as JSON that is inert inside an HTML <script>: the same value to JavaScript, no markup to HTML."""
    return json.dumps(value, sort_keys=True).translate(_SCRIPT_ESCAPES)


def network_page(nodes: list[dict], edges: list[dict], *, physics: bool, height: int) -> str:
    """The vis-network page for these node and edge records (vis-network's own field names)."""
    library, stylesheet = vis_network_files()
    return PAGE.substitute(stylesheet=stylesheet, library=library, height=int(height), nodes=script_json(nodes),
                           edges=script_json(edges), options=script_json(network_options(physics)))


@lru_cache(maxsize=1)
def vis_network_files() -> tuple[str, str]:
    """vis-network's minified script and stylesheet from the installed pyvis package (newest version it ships)."""
    folders = [folder for folder in files("pyvis").joinpath("lib").iterdir() if folder.name.startswith("vis-")]
    if not folders:
        raise RuntimeError("the installed pyvis package ships no lib/vis-*/ folder with vis-network; reinstall the "
                           "locked version (requirements.lock)")
    newest = max(folders, key=lambda folder: tuple(int(part) for part in re.findall(r"\d+", folder.name)))
    return (newest.joinpath("vis-network.min.js").read_text(encoding="utf-8"),
            newest.joinpath("vis-network.css").read_text(encoding="utf-8"))


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
            f'<div><b>Nodes (border) and edges at this budget</b> {" &nbsp; ".join(edges)}; faded = not in the '
            'context; thick = evidence of the query</div>'
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
    # Linear: one literal start, then a lazy scan to the first closing literal (srcdoc holds escaped quotes).
    match = re.search(r'srcdoc="(.*?)"></iframe>', outer, re.S)
    return html.unescape(match.group(1)) if match else ""
