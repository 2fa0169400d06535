"""Turning parsed records into a Graph at the import boundary: every model error becomes a LoadError."""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable, Iterable, Mapping

from core.errors import GraphError, LoadError, LoadNotice, listed, shortened
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


class IdSpellings:
    """Ids as they are turned into text, with the spelling each text was first written in and where.

    Two spellings that become one text (the number 1 and the text "1"; "a" and "a " once spaces are
    stripped) would merge two nodes of the file silently. With the duplicates policy 'reject' they are
    refused naming both spellings; with 'merge' they are read as one node, and `notice` says which.
    """

    def __init__(self, source: str, options: LoadOptions, how: str) -> None:
        self.source, self.options, self.how = source, options, how  # how: what turns spellings into one text
        self.first: dict[str, tuple[object, str]] = {}
        self.merged: dict[str, tuple[object, object]] = {}

    def text(self, original: object, text: str, where: str) -> str:
        """`text` (the id `original` as text), after checking that no other spelling became it."""
        known, known_where = self.first.setdefault(text, (original, where))
        if known is original or (type(known) is type(original) and known == original):
            return text
        if self.options.duplicates == "reject":
            raise LoadError(f"two ids become the same node {_quoted(text)}: {_quoted(known)} ({known_where}) and "
                            f"{_quoted(original)} ({where}), {self.how}", self.source,
                            "write each id one way everywhere, or load with duplicates set to 'merge' "
                            "(--duplicates merge) to read them as one node")
        self.merged.setdefault(text, (known, original))
        return text

    def notice(self) -> None:
        """One line naming the spellings read as one node (the 'merge' policy), if any."""
        if self.merged:
            pairs = listed((f"{_quoted(known)} and {_quoted(other)}" for known, other in self.merged.values()), 5,
                           separator="; ", each=200)
            warnings.warn(LoadNotice(f"{self.source}: {len(self.merged):,} id(s) written two ways were each read as "
                                     f"one node ({self.how}; duplicates 'merge'): {pairs}"), stacklevel=3)


def _quoted(value: object) -> str:
    """A spelling as the file wrote it: a text in quotes, a number bare (so 1 and '1' read apart), bounded."""
    return repr(shortened(value, 60)) if isinstance(value, str) else shortened(str(value), 60)


def undirected_notice(source: str, undirected: int, arcs: int, declared: str, of_all: int | None = None) -> None:
    """One line: the file's undirected edges were read as two directed edges each (a self-loop as one).

    `declared`: what in the file makes them undirected (`directed 0`, `edgedefault="undirected"`, `*Edges`);
    `of_all`, when only some edges are undirected, how many edges the file holds in all."""
    if not undirected:
        return
    edges = f"{undirected:,} edge{'s were' if undirected != 1 else ' was'}"
    loops = 2 * undirected - arcs
    loops_note = f" (self-loops once: {loops:,})" if loops else ""
    if of_all is None or of_all == undirected:
        what = (f"the file declares an undirected graph ({declared}): its {edges} read as {arcs:,} directed "
                f"edges, one each way{loops_note}")
    else:
        what = (f"{undirected:,} of its {of_all:,} edges are undirected ({declared}): read as {arcs:,} directed "
                f"edges, one each way{loops_note}")
    warnings.warn(LoadNotice(f"{source}: {what}"), stacklevel=3)


def infinite_notice(source: str, found: list[str]) -> None:
    """One line: infinite numbers (a GEXF double INF) are kept as text, since the graph model holds finite ones."""
    if found:
        warnings.warn(LoadNotice(f"{source}: {len(found):,} infinite number(s) kept as the text \"Infinity\" or "
                                 f"\"-Infinity\" (the graph model and its formats hold finite numbers only): "
                                 f"{listed(found, 3)}"), stacklevel=3)


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
                        node_values: NodeValues, edge_values: EdgeValues,
                        undirected: str = "undirected") -> Graph:
    """A Graph from a networkx graph a reader parsed: the type and relation attributes the options name,
    else the first of the candidates present; an undirected edge becomes two directed ones (with a notice
    saying so: `undirected` names what in the file makes the graph undirected).

    `node_values` and `edge_values` keep the attributes that are properties (each reader drops its own
    bookkeeping attributes there).
    """
    node_attributes = {name for _, data in parsed.nodes(data=True) for name in data}
    edge_attributes = {name for *_, data in parsed.edges(data=True) for name in data}
    type_attribute = (options.node_type_attribute if options.node_type_attribute is not None
                      else next((name for name in type_attributes if name in node_attributes), None))
    relation_attribute = (options.relation_attribute if options.relation_attribute is not None
                          else next((name for name in relation_attributes if name in edge_attributes), None))
    spellings = IdSpellings(source, options, "as networkx keys them apart but the graph's ids are text")
    infinite: list[str] = []
    nodes = []
    for node_id, data in parsed.nodes(data=True):
        where = f"node {str(node_id)[:80]!r}"
        raw = node_values(node_id, data, type_attribute)
        infinite += [f"{where}, {str(key)[:40]!r}" for key, value in raw.items() if _infinite(value)]
        values = {str(key): property_value(value) for key, value in raw.items()}
        node_type = str(data[type_attribute]) if type_attribute in data else options.default_node_type
        nodes.append(Node(spellings.text(node_id, str(node_id), where), node_type,
                          frozen_properties(values, source, where)))
    edges = []
    for start, end, data in parsed.edges(data=True):
        where = f"edge {str(start)[:80]!r} -> {str(end)[:80]!r}"
        raw = edge_values(data, relation_attribute)
        infinite += [f"{where}, {str(key)[:40]!r}" for key, value in raw.items() if _infinite(value)]
        values = {str(key): property_value(value) for key, value in raw.items()}
        relation = str(data[relation_attribute]) if relation_attribute in data else options.default_relation
        edge = Edge(str(start), relation, str(end), frozen_properties(values, source, where))
        edges.append(edge)
        if not parsed.is_directed() and start != end:
            edges.append(Edge(edge.target, edge.relation, edge.source, edge.properties))
    spellings.notice()
    infinite_notice(source, infinite)
    if not parsed.is_directed():
        undirected_notice(source, parsed.number_of_edges(), len(edges), undirected)
    return build_graph(nodes, edges, source, options, limits=limits)


def _infinite(value: object) -> bool:
    return isinstance(value, float) and math.isinf(value)
