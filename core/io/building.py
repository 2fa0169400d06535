"""Turning parsed records into a Graph at the import boundary: every model error becomes a LoadError."""

from __future__ import annotations

import json
import math
from typing import Iterable, Mapping

from core.errors import GraphError, LoadError
from core.graph import Edge, Graph, Node, Properties, PropertyValue, Schema, freeze_properties
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


def frozen_properties(properties: Mapping[str, PropertyValue], source: str, where: str) -> Properties:
    try:
        return freeze_properties(properties, where)
    except GraphError as error:
        raise LoadError(error.what, f"{source}, {where}", error.fix) from None


def property_value(value: object) -> PropertyValue:
    """A scalar as it is; null, lists and objects as their compact JSON text (the model holds scalars only)."""
    if isinstance(value, (str, bool, int)) or (isinstance(value, float) and math.isfinite(value)):
        return value  # type: ignore[return-value]
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
