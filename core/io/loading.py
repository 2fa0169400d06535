"""One entry for every graph file: detect or take the format, check limits, import, check the result.

`load_graph(data, name=..., format=None)` reads GraphML, GEXF, GML, Pajek, node-link JSON, CSV edge lists (with
an optional nodes table), CKG learning-graph CSVs and every lossless format of `core.formats.FORMATS`.
Without a format name the content decides: XML goes to GraphML (to GEXF when its root is <gexf>),
`graph [` to GML, `*Vertices`/`*Arcs`/`*Edges` to Pajek, a CSV header
with ConceptID/TaxonomyID to the learning-graph reader, one with source/target to the edge-list
reader. Anything else is tried as node-link JSON (when it is JSON) and as every registered lossless
format: it loads when every reader that accepts it finds the same nodes, types and edges (the reading
with the most properties, then a schema, wins: a JSON format may skip members that node-link keeps),
and is refused as ambiguous otherwise (name the format then). A limit refusal ends detection at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.errors import FormatError, LoadError
from core.formats import FORMATS
from core.formats import gml as gml_format
from core.graph.model import Graph
from core.io import edge_list, gexf, gml, graphml, learning_graph, node_link, pajek, xml_head
from core.io.limits import DEFAULT_LIMITS, LimitError, Limits
from core.io.options import DEFAULT_OPTIONS, LoadOptions
from core.io.reading import read_file
from core.io.text import decode_utf8

Parse = Callable[[bytes, str, LoadOptions, Limits], Graph]


@dataclass(frozen=True)
class Importer:
    name: str
    title: str
    parse: Parse
    extensions: tuple[str, ...]


@dataclass(frozen=True)
class Loaded:
    graph: Graph
    format: str  # the importer that read it


def _reader(parse: Callable[..., Graph], takes_options: bool = True) -> Parse:
    """Adapt a module's `parse_...(data, *, source, [options,] limits)` to the Parse signature."""
    if takes_options:
        return lambda data, source, options, limits: parse(data, source=source, options=options, limits=limits)
    return lambda data, source, options, limits: parse(data, source=source, limits=limits)


IMPORTERS = {importer.name: importer for importer in (
    Importer("graphml", "GraphML", _reader(graphml.parse_graphml), (".graphml", ".xml")),
    Importer("gexf", "GEXF (Gephi)", _reader(gexf.parse_gexf), (".gexf",)),
    Importer("gml", "GML", _reader(gml.parse_gml), (".gml",)),
    Importer("pajek", "Pajek .net", _reader(pajek.parse_pajek), (".net", ".paj")),
    Importer("node-link", "node-link JSON", _reader(node_link.parse_node_link), (".json",)),
    Importer("edge-list", "CSV edge list", _reader(edge_list.parse_edge_list), (".csv",)),
    Importer("learning-graph", "CKG learning-graph CSV",
             _reader(learning_graph.parse_learning_graph, takes_options=False), (".csv",)),
)}


def format_names() -> list[str]:
    """Every format `load_graph` reads: the importers, then the registered lossless formats.

    An importer shadows a registered format of the same name (the file format wins on its own name).
    """
    return list(IMPORTERS) + [name for name in FORMATS if FORMATS.get(name).lossless and name not in IMPORTERS]


def load_graph(data: bytes, *, name: str, format: str | None = None, options: LoadOptions = DEFAULT_OPTIONS,
               limits: Limits = DEFAULT_LIMITS, nodes: bytes | None = None, nodes_name: str = "nodes.csv") -> Graph:
    """The graph in `data` (the file called `name`); every failure is a LoadError saying what, where, how to fix."""
    return load(data, name=name, format=format, options=options, limits=limits, nodes=nodes,
                nodes_name=nodes_name).graph


def load(data: bytes, *, name: str, format: str | None = None, options: LoadOptions = DEFAULT_OPTIONS,
         limits: Limits = DEFAULT_LIMITS, nodes: bytes | None = None, nodes_name: str = "nodes.csv") -> Loaded:
    """As `load_graph`, also saying which format read the file."""
    if not isinstance(data, (bytes, bytearray)):
        raise LoadError(f"expected the file's bytes, got {type(data).__name__}", name, "pass the raw bytes")
    limits.check_bytes(len(data), name)
    _refuse_empty(data, name)
    if nodes is not None:
        loaded = _with_nodes_table(data, name, format, options, limits, nodes, nodes_name)
    elif format is not None:
        loaded = Loaded(_parse_as(format, data, name, options, limits), format)
    else:
        loaded = _detected(data, name, options, limits)
    limits.check_graph(loaded.graph, name)
    return loaded


def load_graph_file(path: str | Path, *, format: str | None = None, options: LoadOptions = DEFAULT_OPTIONS,
                    limits: Limits = DEFAULT_LIMITS, nodes_path: str | Path | None = None) -> Graph:
    """Thin file wrapper: the size is checked before the file is read."""
    path = Path(path)
    data = read_file(path, limits)
    nodes = read_file(Path(nodes_path), limits) if nodes_path is not None else None
    return load_graph(data, name=path.name, format=format, options=options, limits=limits, nodes=nodes,
                      nodes_name=Path(nodes_path).name if nodes_path is not None else "nodes.csv")


def _refuse_empty(data: bytes, name: str) -> None:
    """An empty file would read as an empty graph in several formats, and measure as a perfect one."""
    if not bytes(data).removeprefix(b"\xef\xbb\xbf").strip():
        what = "the file is empty (0 bytes)" if not data else "the file holds only white space"
        raise LoadError(what, name, "choose the graph file itself; an empty graph has nothing to measure")


def _with_nodes_table(data: bytes, name: str, format: str | None, options: LoadOptions, limits: Limits,
                      nodes: bytes, nodes_name: str) -> Loaded:
    if format not in (None, "edge-list"):
        raise LoadError(f"a nodes table goes with an edge-list CSV, not with {format!r}", name,
                        "drop the nodes table, or load the edges as format 'edge-list'")
    limits.check_bytes(len(nodes), nodes_name)
    graph = edge_list.parse_edge_list(data, nodes=nodes, source=name, nodes_source=nodes_name, options=options,
                                      limits=limits)
    return Loaded(graph, "edge-list")


# Importers whose name a registered format also carries and that no file writer shadows when saving
# (core.io.saving): saving in that name writes the registered format, so its own decoder reads a file
# that opens as the lab writes it, and the importer (which checks limits while reading) reads the rest.
# The lab's `gml` names nodes by `label`; the GML importer by `id`.
_OWN_TEXT_FIRST = {"gml": gml_format.PREAMBLE.encode()}
_BYTE_ORDER_MARK = b"\xef\xbb\xbf"  # dropped by every reader (core.io.text.decode_utf8), so here too


def _parse_as(format: str, data: bytes, name: str, options: LoadOptions, limits: Limits) -> Graph:
    if format in _OWN_TEXT_FIRST and bytes(data).removeprefix(_BYTE_ORDER_MARK).startswith(_OWN_TEXT_FIRST[format]):
        try:
            return _decoded(format, data, name)
        except LoadError:
            pass  # not the lab's own text: a GML file of any other writer
    if format in IMPORTERS:
        return IMPORTERS[format].parse(data, name, options, limits)
    if format in FORMATS and FORMATS.get(format).lossless:
        return _decoded(format, data, name)
    raise LoadError(f"unknown graph file format {format!r}", name, f"use one of: {', '.join(format_names())}")


def _decoded(format: str, data: bytes, name: str) -> Graph:
    """A registered format's own decoder (its text may hold NUL characters, which it escapes its own way)."""
    text = decode_utf8(data, name, allow_nul=True)
    try:
        return FORMATS.get(format).decode(text)
    except FormatError as error:
        raise LoadError(f"not valid {format}: {error.what}", f"{name}, {error.where}" if error.where else name,
                        error.fix) from None
    except RecursionError:
        raise LoadError(f"not valid {format}: the text nests too deeply", name, "load a flatter file") from None


# Patterns run on the first 4 KB of an untrusted file (see tests/core/io/test_regex_safety.py, which feeds each
# adversarial heads under a time limit). Each is safe because no quantified piece can match the same text as
# its neighbour, and the repeated ones are possessive (`*+`, `++`: Python 3.11), so a failed match never
# re-splits what a loop already consumed:
# - _XML_START: a fixed alternation, anchored; no repetition beyond one possessive name.
# - _PAJEK_START, _GML_START: a run of comment lines, each starting with its own marker (% or #) that white
#   space cannot match, taken possessively line by line.
# The GEXF root is found by `xml_head.root_name`, a loop: `(<!--.*?-->\s*)*<gexf` backtracked exponentially.
_XML_START = re.compile(r"<(?:\?xml|!DOCTYPE|!--|(?:[\w.-]++:)?+graphml\b)", re.IGNORECASE)
_PAJEK_START = re.compile(r"(?:%[^\n]*+\n\s*+)*+\*(?:network|vertices|arcs|edges)\b", re.IGNORECASE)
_GML_START = re.compile(r"(?:#[^\n]*+\n\s*+)*+(?:graph|Creator|Version)\s*+[\[\"]")


def _exclusive_format(data: bytes, head: str, name: str, options: LoadOptions = DEFAULT_OPTIONS) -> str | None:
    """The one importer a file's start (or extension) leaves, if any."""
    extension = Path(name).suffix.lower()
    first_line = _first_line(head)
    if xml_head.root_name(bytes(data)) == "gexf" or extension in IMPORTERS["gexf"].extensions:
        return "gexf"
    if _XML_START.match(head) or extension in IMPORTERS["graphml"].extensions:
        return "graphml"
    if _GML_START.match(head) or extension in IMPORTERS["gml"].extensions:
        return "gml"
    if _PAJEK_START.match(head) or extension in IMPORTERS["pajek"].extensions:
        return "pajek"
    if "ConceptID" in first_line and "TaxonomyID" in first_line:
        return "learning-graph"
    columns = {column.strip().strip('"') for column in first_line.split(",")}
    if {options.source_column, options.target_column} <= columns:  # the mapped columns, "source,target" by default
        return "edge-list"
    return None


def _first_line(head: str) -> str:
    lines = head.splitlines()  # CR-only line ends too
    return lines[0] if lines else ""


# Registered formats whose whole text is one JSON value: when the file parses as JSON, only these
# (and node-link) are tried. YAML reads JSON too, but ~50 µs per byte; it would only agree or refuse.
JSON_FORMATS = ("pretty_json", "compact_json", "jsonl", "structured_json", "jsonld")


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _detected(data: bytes, name: str, options: LoadOptions, limits: Limits) -> Loaded:
    head = data[:4096].decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    exclusive = _exclusive_format(data, head, name, options)
    if exclusive is not None:
        return Loaded(_parse_as(exclusive, data, name, options, limits), exclusive)
    decode_utf8(data, name, allow_nul=True)  # every remaining reader needs UTF-8: say so once, plainly
    candidates = [format for format in FORMATS if FORMATS.get(format).lossless]
    if Path(name).suffix.lower() == ".csv":  # a CSV whose header the sniffing did not place: say why each refused
        candidates[:0] = ["edge-list", "learning-graph"]
    json_only: bool | None = None  # decided (one json.loads) only if a reader past node-link is reached
    if head.startswith(("{", "[")):
        candidates.insert(0, "node-link")
    accepted: list[Loaded] = []
    refused: dict[str, LoadError] = {}
    for format in candidates:
        if format != "node-link" and format not in JSON_FORMATS and head.startswith(("{", "[")):
            if json_only is None:
                json_only = _is_json(decode_utf8(data, name, allow_nul=True))
            if json_only:
                continue
        try:
            accepted.append(Loaded(_parse_as(format, data, name, options, limits), format))
        except LimitError:
            raise  # too large is too large, whatever the format
        except LoadError as error:
            refused[format] = error
    if not accepted:
        raise _unreadable(refused, name, head)
    return _agreed(accepted, name)


def _agreed(accepted: list[Loaded], name: str) -> Loaded:
    """The reading all accepting readers agree on.

    Readers must agree on the nodes, types and edges. A reader may skip members it does not know
    (a JSON format reading a node-link file with extra attributes), so of readings with the same
    structure the one with the most properties (then a schema) wins; a tie that differs is ambiguous.
    """
    names = ", ".join(loaded.format for loaded in accepted)
    if len({_structure(loaded.graph) for loaded in accepted}) > 1:
        raise LoadError(f"the file reads as several formats that give different graphs: {names}", name,
                        "name the format (--format NAME)")
    ranked = sorted(accepted, key=_richness, reverse=True)  # stable: candidate order breaks ties
    best = ranked[0]
    if any(_richness(loaded) == _richness(best) and loaded.graph != best.graph for loaded in ranked[1:]):
        raise LoadError(f"the file reads as several formats that give different properties: {names}", name,
                        "name the format (--format NAME)")
    return best


def _structure(graph: Graph) -> tuple:
    return (tuple((node.id, node.type) for node in graph.nodes),
            tuple(sorted((edge.source, edge.relation, edge.target) for edge in graph.edges)))


def _richness(loaded: Loaded) -> tuple[int, bool]:
    graph = loaded.graph
    properties = sum(len(node.properties) for node in graph.nodes) + sum(len(edge.properties) for edge in graph.edges)
    return properties, graph.schema is not None


# Safe on error texts: a literal then one digit run.
_LINE = re.compile(r"line (\d+)")


def _unreadable(refused: dict[str, LoadError], name: str, head: str) -> LoadError:
    """The most telling refusal: the format named by the extension, node-link for JSON, a format whose name
    holds the extension, else the one that read furthest into the file (the largest line named), else a
    plain "not recognised"."""
    fix = f"name the file's format (--format, one of: {', '.join(format_names())})"
    extension = Path(name).suffix.lower().lstrip(".")
    if extension == "csv" and "id" in {column.strip() for column in head.split("\n", 1)[0].split(",")}:
        return LoadError("this looks like a nodes table (it has an id column) without its edges", name,
                         "load the edges CSV (source,relation,target) and give this file as its nodes table "
                         "(--nodes FILE)")
    preferred = (["edge-list"] if extension == "csv" and "edge-list" in refused else [])
    preferred += ([format for format in refused if format == extension] + [format for format in refused if format == "node-link"]
                 + [format for format in refused if extension and extension in format.split("_")])
    furthest = max(refused, key=lambda format: _line_reached(refused[format]))
    if not preferred and _line_reached(refused[furthest]) > 1:
        preferred = [furthest]
    if not preferred:
        found = LoadError("the file's format is not recognised: it is not GraphML, GEXF, GML, Pajek, a CSV edge "
                          f"list or learning graph, node-link JSON, or any of {', '.join(refused)} "
                          f"({_tried(refused, '', shown=3)})", name, fix)
        found.primary = LoadError("the file's format is not recognised by any reader of this lab", name, fix)
        return found
    primary = preferred[0]
    error = refused[primary]
    found = LoadError(f"{error.what} (read as {primary}; {_tried(refused, primary)})", error.where,
                      f"{error.fix}; or {fix}")
    found.primary = LoadError(f"{error.what} (read as {primary})", error.where, f"{error.fix}; or {fix}")
    return found


def _tried(refused: dict[str, LoadError], primary: str, shown: int = 4) -> str:
    """Which other readers were tried and, for the first few, why each refused."""
    others = [format for format in refused if format != primary]
    if not others:
        return "no other reader applies"
    reasons = "; ".join(f"{format}: {refused[format].what[:80]}" for format in others[:shown])
    more = f"; and {len(others) - shown} more" if len(others) > shown else ""
    return f"the other readers refused it too: {reasons}{more}"


def _line_reached(error: LoadError) -> int:
    found = _LINE.search(error.where)
    return int(found.group(1)) if found else 0
