"""Turning parsed records into a Graph at the import boundary: every model error becomes a LoadError."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping

from core.errors import GraphError, LoadError
from core.graph.model import Edge, Graph, Node, Properties, PropertyValue, Schema, freeze_properties
from core.io.limits import DEFAULT_LIMITS, Limits
from core.io.options import LoadOptions


def build_graph(nodes: Iterable[Node], edges: Iterable[Edge], source: str, options: LoadOptions,
                schema: Schema | None = None, limits: Limits = DEFAULT_LIMITS) -> Graph:
    """Graph.build under the load options, with the count limits checked first (building is the slow part)."""
    nodes, edges = list(nodes), list(edges)
    node_ids = {node.id for node in nodes} | {end for edge in edges for end in (edge.source, edge.target)}
    limits.check_counts(len(node_ids), len(edges), source)
    try:
        return Graph.build(nodes, edges, schema, duplicates=options.duplicates,
                           missing_endpoints=options.missing_endpoints, missing_type=options.default_node_type)
    except GraphError as error:
        raise LoadError(error.what, f"{source}: {error.where}" if error.where else source, error.fix) from None


def frozen_properties(properties: Mapping[str, PropertyValue] | Iterable[tuple[str, PropertyValue]], source: str,
                      where: str) -> Properties:
    try:
        return freeze_properties(properties, where)
    except GraphError as error:
        raise LoadError(error.what, f"{source}, {where}", error.fix) from None


def property_value(value: object) -> PropertyValue:
    """A scalar as it is; null, lists and objects as their compact JSON text (the model holds scalars only)."""
    if isinstance(value, (str, bool, int)) or (isinstance(value, float) and math.isfinite(value)):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True, default=str)


def missing_endpoint_error(node_id: str, source: str, where: str) -> LoadError:
    return LoadError(f"an edge points to node {node_id[:80]!r}, which is not declared", f"{source}, {where}",
                     "declare the node, or load with missing endpoints set to 'create' "
                     "(--missing-endpoints create)")


def check_endpoints(edges: Iterable[tuple[Edge, str]], declared: set[str], source: str,
                    options: LoadOptions) -> None:
    """With the 'reject' policy, name the first edge (and where it is) whose endpoint is not declared."""
    if options.missing_endpoints != "reject":
        return
    for edge, where in edges:
        for end in (edge.source, edge.target):
            if end not in declared:
                raise missing_endpoint_error(end, source, where)


NodeValues = Callable[[object, dict, "str | None"], dict]  # (node id, attributes, type attribute) -> properties
EdgeValues = Callable[[dict, "str | None"], dict]  # (attributes, relation attribute) -> properties


def graph_from_networkx(parsed, source: str, options: LoadOptions, limits: Limits, *,
                        type_attributes: Iterable[str], relation_attributes: Iterable[str],
                        node_values: NodeValues, edge_values: EdgeValues) -> Graph:
    """A Graph from a networkx graph a reader parsed: the type and relation attributes the options name,
    else the first of the candidates present; an undirected edge becomes two directed ones.

    `node_values` and `edge_values` keep the attributes that are properties (each reader drops its own
    bookkeeping attributes there).
    """
    node_attributes = {name for _, data in parsed.nodes(data=True) for name in data}
    edge_attributes = {name for *_, data in parsed.edges(data=True) for name in data}
    type_attribute = (options.node_type_attribute if options.node_type_attribute is not None
                      else next((name for name in type_attributes if name in node_attributes), None))
    relation_attribute = (options.relation_attribute if options.relation_attribute is not None
                          else next((name for name in relation_attributes if name in edge_attributes), None))
    nodes = []
    for node_id, data in parsed.nodes(data=True):
        where = f"node {str(node_id)[:80]!r}"
        values = {str(key): property_value(value) for key, value in node_values(node_id, data, type_attribute).items()}
        node_type = str(data[type_attribute]) if type_attribute in data else options.default_node_type
        nodes.append(Node(str(node_id), node_type, frozen_properties(values, source, where)))
    edges = []
    for start, end, data in parsed.edges(data=True):
        where = f"edge {str(start)[:80]!r} -> {str(end)[:80]!r}"
        values = {str(key): property_value(value) for key, value in edge_values(data, relation_attribute).items()}
        relation = str(data[relation_attribute]) if relation_attribute in data else options.default_relation
        edge = Edge(str(start), relation, str(end), frozen_properties(values, source, where))
        edges.append(edge)
        if not parsed.is_directed() and start != end:
            edges.append(Edge(edge.target, edge.relation, edge.source, edge.properties))
    return build_graph(nodes, edges, source, options, limits=limits)
