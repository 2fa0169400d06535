"""CSV edge lists: `source,relation,target[,properties...]` plus an optional nodes table `id,type[,properties...]`.

Reading: `relation` and `type` columns are optional (the defaults of the load options fill them);
every other column is a text property, omitted where the cell is empty. Ids, types and relations
are stripped of surrounding spaces; two spellings of an id that become one (`a` and `a `) are refused
naming both, or read as one node with a notice under duplicates 'merge'. Without a nodes table every endpoint becomes a node of the default
type; with one, an edge to an undeclared node follows the missing-endpoints policy.
Writing: two spreadsheet-safe tables (see `core.io.spreadsheet`), edges and nodes, one column per
property key. Formula-like cells gain a leading `'`, so this export is for spreadsheets, not lossless.
"""

from __future__ import annotations

from dataclasses import replace

from core.errors import GraphError, LoadError
from core.graph.model import Edge, Graph, Node
from core.io.building import IdSpellings, build_graph, check_endpoints, frozen_properties
from core.io.csv_tables import read_table
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.options import DEFAULT_OPTIONS, LoadOptions
from core.io.spreadsheet import spreadsheet_csv

EDGE_COLUMNS = ("source", "target")
NODE_COLUMNS = ("id",)


def parse_edge_list(data: bytes, *, nodes: bytes | None = None, source: str = "edges.csv",
                    nodes_source: str = "nodes.csv", options: LoadOptions = DEFAULT_OPTIONS,
                    limits: Limits = DEFAULT_LIMITS) -> Graph:
    """The graph of an edges table and, if given, a nodes table."""
    spellings = IdSpellings(source, options, "once the spaces around ids are stripped")
    edges = _edges(data, source, options, limits, spellings)
    if nodes is None:
        spellings.notice()
        typed = (_typed_ends(data, source, options, limits)
                 if options.source_type_column or options.target_type_column else [])
        return build_graph(typed, [edge for edge, _ in edges], source, replace(options, missing_endpoints="create"),
                           limits=limits)
    node_list = _nodes(nodes, nodes_source, options, limits, spellings)
    spellings.notice()
    check_endpoints(edges, {node.id for node in node_list}, source, options)
    return build_graph(node_list, [edge for edge, _ in edges], source, options, limits=limits)


def mapped_columns(options: LoadOptions) -> tuple[str, ...]:
    """The columns the options read as edge structure: source, target, relation and the ends' types."""
    return tuple(name for name in (options.source_column, options.target_column, options.relation_column,
                                   options.source_type_column, options.target_type_column) if name)


def _edges(data: bytes, source: str, options: LoadOptions, limits: Limits,
           spellings: IdSpellings) -> list[tuple[Edge, str]]:
    required = (options.source_column, options.target_column,
                *(name for name in (options.source_type_column, options.target_type_column) if name))
    _, rows = read_table(data, source, required, limits=limits)
    structure = set(mapped_columns(options))
    edges = []
    for line, row in rows:
        where = f"line {line}"
        ends = [row[options.source_column].strip(), row[options.target_column].strip()]
        if not all(ends):
            raise LoadError("the row has an empty source or target", f"{source}, {where}",
                            "give every edge a source and a target id")
        for column, end in zip((options.source_column, options.target_column), ends):
            spellings.text(row[column], end, f"{where}, column {column[:40]!r}")
        relation = row.get(options.relation_column, "").strip() or options.default_relation
        properties = {name: value for name, value in row.items() if name not in structure and value}
        edges.append((Edge(ends[0], relation, ends[1], frozen_properties(properties, source, where)), where))
    return edges


def _typed_ends(data: bytes, source: str, options: LoadOptions, limits: Limits) -> list[Node]:
    """The nodes the type columns name: each end with the type its row gives (a node named with two types is
    a duplicate that disagrees, left to the duplicates policy)."""
    _, rows = read_table(data, source, (options.source_column, options.target_column), limits=limits)
    found: dict[tuple[str, str], Node] = {}
    for _line, row in rows:
        for id_column, type_column in ((options.source_column, options.source_type_column),
                                       (options.target_column, options.target_type_column)):
            node_id = row[id_column].strip()
            node_type = (row.get(type_column, "") if type_column else "").strip() or options.default_node_type
            found.setdefault((node_id, node_type), Node(node_id, node_type))
    return list(found.values())


def _nodes(data: bytes, source: str, options: LoadOptions, limits: Limits, spellings: IdSpellings) -> list[Node]:
    _, rows = read_table(data, source, NODE_COLUMNS, limits=limits)
    nodes = []
    for line, row in rows:
        where = f"line {line}"
        node_id = row["id"].strip()
        if not node_id:
            raise LoadError("the row has an empty id", f"{source}, {where}", "give every node an id")
        spellings.text(row["id"], node_id, f"{source}, {where}, column 'id'")
        node_type = row.get("type", "").strip() or options.default_node_type
        properties = {name: value for name, value in row.items() if name not in ("id", "type") and value}
        nodes.append(Node(node_id, node_type, frozen_properties(properties, source, where)))
    return nodes


def write_edge_list(graph: Graph) -> tuple[str, str]:
    """(edges CSV, nodes CSV), spreadsheet-safe, one column per property key."""
    edge_keys = _property_columns([edge.properties for edge in graph.edges], ("source", "relation", "target"))
    node_keys = _property_columns([node.properties for node in graph.nodes], ("id", "type"))
    edges = spreadsheet_csv(["source", "relation", "target", *edge_keys],
                            ([edge.source, edge.relation, edge.target, *_cells(edge.properties, edge_keys)]
                             for edge in graph.edges))
    nodes = spreadsheet_csv(["id", "type", *node_keys],
                            ([node.id, node.type, *_cells(node.properties, node_keys)] for node in graph.nodes))
    return edges, nodes


def _property_columns(all_properties: list, fixed: tuple[str, ...]) -> list[str]:
    keys = sorted({key for properties in all_properties for key, _ in properties})
    clash = [key for key in keys if key in fixed]
    if clash:  # it would be read back as that column
        raise GraphError(f"a property is named {clash[0]!r}, like a fixed column", "edge-list CSV export",
                         "export as node-link JSON or one of the project's formats")
    return keys


def _cells(properties, keys: list[str]) -> list[object]:
    values = dict(properties)
    return [values.get(key, "") for key in keys]
