"""Save a graph: every registered lossless format, GraphML, GEXF, Pajek, node-link JSON, the CKG CSV, spreadsheet CSVs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.model import Graph
from core.graph.units import graph_units
from core.io import edge_list, gexf, graphml, learning_graph, node_link, pajek
from core.io.whole_file import write_whole

NODES_SUFFIX = ".nodes.csv"

# Formats outside the registry that write one text. "edge-list" writes two tables (see save_graph_files).
WRITERS: dict[str, Callable[[Graph], str]] = {
    "graphml": graphml.write_graphml,
    "gexf": gexf.write_gexf,
    "pajek": pajek.write_pajek,  # lossy in value types: Pajek holds text only
    "node-link": node_link.write_node_link,
    "learning-graph": learning_graph.write_learning_graph,
}
SPREADSHEET = "edge-list"
LOSSY_EXPORTS = (SPREADSHEET, "pajek")  # what they write does not always read back as the same graph


def export_format_names() -> list[str]:
    """Lossless registered formats (read at call time, so later registrations count), then the others.

    A writer here shadows a registered format of the same name (the file format wins on its own name).
    """
    own = list(WRITERS) + [SPREADSHEET]
    return [name for name in FORMATS if FORMATS.get(name).lossless and name not in own] + own


def save_graph(graph: Graph, format: str) -> str:
    """The graph's text in `format` (a one-file format); GraphError if the format cannot hold the graph."""
    if format in WRITERS:
        return WRITERS[format](graph)
    if format in FORMATS and FORMATS.get(format).lossless:
        return FORMATS.get(format).render(graph, graph_units(graph)).text
    if format == SPREADSHEET:
        raise ParameterError("the edge-list export writes two files", "format", "use save_graph_files")
    raise ParameterError(f"cannot save as {format!r}", "format", f"use one of: {', '.join(export_format_names())}")


def save_graph_files(graph: Graph, format: str, path: str | Path) -> list[Path]:
    """Write the graph to `path` (and, for the edge-list export, its nodes table beside it); the paths written."""
    path = Path(path)
    if format == SPREADSHEET:
        edges, nodes = edge_list.write_edge_list(graph)
        nodes_path = path.with_name(path.stem + NODES_SUFFIX)
        write_whole(path, edges)
        write_whole(nodes_path, nodes)
        return [path, nodes_path]
    write_whole(path, save_graph(graph, format))
    return [path]
