"""The graph a record prefix describes, as a view of the full graph: no text parsed, no Graph rebuilt.

The format contract (property-tested for every lossless format, ordering and layout) says that the
first k records of a rendering decode to exactly this graph: the node units they carry, the edge
units they carry, and for every kept edge whose endpoint's node record was not kept a stand-in node
of type "unknown" without properties (`core.graph.model.ORPHAN_TYPE`, as every decoder writes).

`UnitPositions` is built once per rendering: for each node and edge of the full graph, the record
that carries it (or "never", for units the rendering leaves out). `positions.kept(k)` is then an O(1)
`KeptGraph` the query solvers read like a Graph (`nodes`, `edges`, `node_by_id`), and
`core.queries.traversal` walks it through the full graph's adjacency, filtered by record position,
so a solver touches only what it explores. Edge keys are the full graph's keys (a decoded graph
numbers parallel copies among the kept ones only); answers never contain edge keys, only ids and
labels, so they are the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from core.graph.derived import derived, memo_of
from core.graph.model import ORPHAN_TYPE, Edge, Graph, Node
from core.graph.units import edge_keys, graph_units, node_key

NEVER = np.iinfo(np.int64).max  # the position of a unit the rendering does not hold
TAIL_KEY = "tail:"  # keys of the edges a raw cut's partial last record adds (unit keys start n: or e:)


@dataclass(frozen=True)
class _GraphKeys:
    """What every rendering of one graph shares: unit keys, node indices and edge endpoints' indices."""

    node_index: dict[str, int]
    node_keys: list[str]
    edge_keys: list[str]
    sources: np.ndarray
    targets: np.ndarray

    @cached_property
    def unit_index(self) -> dict[str, int]:
        """Unit key -> its index among all units: nodes first (graph order), then edges (canonical order)."""
        keys = self.node_keys + self.edge_keys
        return dict(zip(keys, range(len(keys))))

    @cached_property
    def marks(self) -> np.ndarray:
        """A fixed pseudo-random 64-bit mark per unit (same order as unit_index): a kept set's sum of
        marks finds the earlier cuts that may keep the same units (then compared exactly)."""
        count = len(self.node_keys) + len(self.edge_keys)
        return np.random.default_rng(0).integers(0, 2**63, size=count, dtype=np.uint64)

    def indices(self, keys: Iterable[str]) -> np.ndarray:
        """Unit indices of the keys, in their order; -1 for a key the graph does not have."""
        lookup = self.unit_index.get
        return np.fromiter((lookup(key, -1) for key in keys), dtype=np.int64)


def graph_keys(graph: Graph) -> _GraphKeys:
    """Unit keys, node indices and edge endpoints of a graph, computed once per graph."""
    return derived(graph, "graph keys", lambda: _graph_keys(graph))


def _graph_keys(graph: Graph) -> _GraphKeys:
    nodes = graph.nodes
    node_index = {node.id: index for index, node in enumerate(nodes)}
    keyed = list(edge_keys(graph))
    keys = _GraphKeys(node_index, [node_key(node.id) for node in nodes], [key for key, _ in keyed],
                      np.fromiter((node_index[edge.source] for _, edge in keyed), dtype=np.int64, count=len(keyed)),
                      np.fromiter((node_index[edge.target] for _, edge in keyed), dtype=np.int64, count=len(keyed)))
    return keys


class UnitPositions:
    """Per rendering: the record index carrying each node and edge of the full graph."""

    def __init__(self, graph: Graph, record_of_key: Mapping[str, int]) -> None:
        self.graph = graph
        self.record_of_key = record_of_key
        keys = graph_keys(graph)
        self.node_index, self.edge_keys = keys.node_index, keys.edge_keys
        lookup = record_of_key.get
        self.node_record = np.fromiter((lookup(key, NEVER) for key in keys.node_keys), dtype=np.int64,
                                       count=len(keys.node_keys))
        self.edge_record = np.fromiter((lookup(key, NEVER) for key in self.edge_keys), dtype=np.int64,
                                       count=len(self.edge_keys))
        # A node is in a prefix's decoded graph from its own record or its first edge's, whichever is first.
        present = self.node_record.copy()
        if self.edge_keys:
            np.minimum.at(present, keys.sources, self.edge_record)
            np.minimum.at(present, keys.targets, self.edge_record)
        self.present_from = present

    @cached_property
    def unit_record(self) -> np.ndarray:
        """Per unit (graph_keys' unit order: nodes, then edges): the record carrying it, NEVER when none."""
        return np.concatenate((self.node_record, self.edge_record))

    def records_of(self, indices: np.ndarray) -> np.ndarray:
        """The record of each unit index (`_GraphKeys.indices`); NEVER for -1 or a unit not rendered."""
        found = self.unit_record[np.maximum(indices, 0)]
        return np.where(indices < 0, NEVER, found)

    def prefix_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """For every prefix length k (0 to the last record + 1): how many node and edge units it holds."""
        rendered = [self.node_record[self.node_record != NEVER], self.edge_record[self.edge_record != NEVER]]
        length = max((int(part.max()) + 1 for part in rendered if len(part)), default=0)
        return tuple(np.concatenate(([0], np.cumsum(np.bincount(part, minlength=length), dtype=np.int64)))
                     for part in rendered)  # type: ignore[return-value]

    @cached_property
    def _marked_prefixes(self) -> tuple[np.ndarray, np.ndarray]:
        records = self.unit_record
        rendered = np.flatnonzero(records != NEVER)
        order = rendered[np.argsort(records[rendered], kind="stable")]
        sums = np.concatenate((np.zeros(1, dtype=np.uint64), np.cumsum(graph_keys(self.graph).marks[order],
                                                                         dtype=np.uint64)))
        return records[order], sums  # sums wrap around 2**64: only equality is read

    def kept_mark(self, records: int) -> tuple[int, int]:
        """(how many units, the sum of their marks) of the first `records` records: equal for equal kept sets."""
        ordered, sums = self._marked_prefixes
        count = int(np.searchsorted(ordered, records))
        return count, int(sums[count])

    def kept_units(self, records: int) -> np.ndarray:
        """Indices (graph_keys' unit order) of the units the first `records` records hold, ascending."""
        return np.flatnonzero(self.unit_record < records)

    def kept(self, records: int, nodes: tuple[Node, ...] = (), edges: tuple[Edge, ...] = ()) -> KeptGraph:
        """The graph the first `records` records describe, plus the nodes and edges a raw cut's partial
        last record adds (`core.formats.cut_parse.TailVerdict`: nodes only of ids without a kept record)."""
        return KeptGraph(self, records, nodes, edges)

    def own_record(self, node_id: str, records: int) -> tuple[int, Node] | None:
        """(the record carrying the node's own record, the node) when it is among the first `records`."""
        index = self.node_index.get(node_id)
        if index is None:
            return None
        record = int(self.node_record[index])
        return (record, self.graph.nodes[index]) if record < records else None

    @cached_property
    def edge_of_key(self) -> dict[str, Edge]:
        """Full graph edge key -> edge (for merging a tail's edges into the canonical order)."""
        return dict(zip(self.edge_keys, self.graph.edges))


def positions_for(owner: object, graph: Graph, record_of_key: Mapping[str, int]) -> UnitPositions:
    """`UnitPositions(graph, record_of_key)`, built once per owner (the rendering the keys are of), for the sweep,
    the cut readings and the placement columns alike."""
    memo = memo_of(owner)
    found = memo.get("unit positions")
    if found is None or found.graph is not graph or found.record_of_key is not record_of_key:
        found = memo["unit positions"] = UnitPositions(graph, record_of_key)
    return found


def _image_of(graph: Graph, format_) -> tuple[Graph, dict[str, tuple[str, ...]]]:
    """The graph a lossy format's decoder gives back of the whole graph, and per unit key the image keys it may take.

    Units whose images are equal (two relations between the same ends, once relations are dropped) are
    parallel copies in the image: each may stand for any of them, so they share one list of keys.
    """
    return derived(graph, ("image", format_.name), lambda: _image(graph, format_))


def _image(graph: Graph, format_) -> tuple[Graph, dict[str, tuple[str, ...]]]:
    units = graph_units(graph)
    images = {unit.key: format_.image(unit) for unit in units}
    image = Graph.build([value for value in images.values() if isinstance(value, Node)],
                        [value for value in images.values() if isinstance(value, Edge)],
                        missing_endpoints="create", missing_type=ORPHAN_TYPE)
    copies: dict[Edge, list[str]] = {}
    for key, edge in edge_keys(image):
        copies.setdefault(edge, []).append(key)
    choices = {key: ((node_key(value.id),) if isinstance(value, Node) else tuple(copies[value]))
               for key, value in images.items()}
    return image, choices


def image_positions(graph: Graph, format_, records) -> UnitPositions:
    """UnitPositions over a lossy format's image of the graph, for a rendering's records (in order).

    The k-th record prefix's view is then the graph decoding that prefix gives: each unit becomes its
    image, and parallel copies of one image are taken in the order their records come.
    """
    image, choices = _image_of(graph, format_)
    record_of_key: dict[str, int] = {}
    taken: dict[tuple[str, ...], int] = {}
    for index, record in enumerate(records):
        for key in record.unit_keys:
            options = choices[key]
            if len(options) == 1:
                record_of_key.setdefault(options[0], index)
            else:
                used = taken.get(options, 0)
                record_of_key[options[used]] = index
                taken[options] = used + 1
    return UnitPositions(image, record_of_key)


class _KeptNodes(Mapping[str, Node]):
    """node id -> Node in the kept graph: the node itself, or its stand-in when only an edge names it."""

    def __init__(self, view: KeptGraph) -> None:
        self._view = view

    def get(self, node_id, default=None):  # the hot path of every solver
        view = self._view
        positions = view.positions
        index = positions.node_index.get(node_id)
        if index is not None and positions.node_record[index] < view.records:
            return positions.graph.nodes[index]
        if view.extra_nodes or view.extra_edges:
            added = view.added_nodes.get(node_id)
            if added is not None:
                return added
        if index is None or positions.present_from[index] >= view.records:
            return default
        return Node(node_id, ORPHAN_TYPE)

    def __getitem__(self, node_id: str) -> Node:
        node = self.get(node_id)
        if node is None:
            raise KeyError(node_id)
        return node

    def __contains__(self, node_id: object) -> bool:
        return self.get(node_id) is not None

    def __iter__(self) -> Iterator[str]:
        return (node.id for node in self._view.nodes)

    def __len__(self) -> int:
        return len(self._view.nodes)


@dataclass(frozen=True, eq=False)
class KeptGraph:
    """The full graph restricted to the units of its first `records` records (with stand-in endpoints)."""

    positions: UnitPositions
    records: int
    # What a raw cut's partial last record adds (empty for a record prefix): nodes of ids without a
    # kept record of their own, and edges, keyed `TAIL_KEY<n>` (never a unit key of the full graph).
    extra_nodes: tuple[Node, ...] = ()
    extra_edges: tuple[Edge, ...] = ()

    @property
    def full(self) -> Graph:
        return self.positions.graph

    @property
    def extended(self) -> bool:
        return bool(self.extra_nodes or self.extra_edges)

    def has_key(self, key: str) -> bool:
        position = self.positions.record_of_key.get(key)
        if position is None:
            return key.startswith(TAIL_KEY) and int(key[len(TAIL_KEY):]) < len(self.extra_edges)
        return position < self.records

    @cached_property
    def added_nodes(self) -> dict[str, Node]:
        """Node id -> node for the ids the tail brings that have no kept record of their own."""
        added = {node.id: node for node in self.extra_nodes}
        kept = self._base_nodes_by_id
        for edge in self.extra_edges:
            for end in (edge.source, edge.target):
                if end not in added and end not in kept:
                    added[end] = Node(end, ORPHAN_TYPE)
        return added

    @cached_property
    def _base_nodes_by_id(self) -> dict[str, Node]:
        return {node.id: node for node in self._base_nodes}

    def extra_steps(self, relation: str | None, reverse: bool) -> dict[str, list[tuple[str, str]]]:
        """node -> [(neighbour, key)] over the tail's edges of one relation (any when None)."""
        steps: dict[str, list[tuple[str, str]]] = {}
        for number, edge in enumerate(self.extra_edges):
            if relation is None or edge.relation == relation:
                if reverse:
                    steps.setdefault(edge.target, []).append((edge.source, f"{TAIL_KEY}{number}"))
                else:
                    steps.setdefault(edge.source, []).append((edge.target, f"{TAIL_KEY}{number}"))
        return steps

    def edge_of_key(self, key: str) -> Edge:
        if key.startswith(TAIL_KEY) and key not in self.positions.record_of_key:
            return self.extra_edges[int(key[len(TAIL_KEY):])]
        return self.positions.edge_of_key[key]

    @cached_property
    def node_by_id(self) -> _KeptNodes:
        return _KeptNodes(self)

    @cached_property
    def nodes(self) -> tuple[Node, ...]:
        """Nodes in id order, as a decoder's canonical graph lists them."""
        if not self.extended:
            return self._base_nodes
        every = {**self._base_nodes_by_id, **self.added_nodes}
        return tuple(every[node_id] for node_id in sorted(every))

    @cached_property
    def _base_nodes(self) -> tuple[Node, ...]:
        positions = self.positions
        present = np.flatnonzero(positions.present_from < self.records).tolist()
        own = positions.node_record < self.records
        every = positions.graph.nodes
        return tuple(every[index] if own[index] else Node(every[index].id, ORPHAN_TYPE) for index in present)

    @cached_property
    def edges(self) -> tuple[Edge, ...]:
        return tuple(edge for _, edge in self.keyed_edges())

    def keyed_edges(self) -> list[tuple[str, Edge]]:
        """(full graph key, edge) of the kept edges in canonical order (tail edges keyed `TAIL_KEY<n>`)."""
        keys, every = self.positions.edge_keys, self.positions.graph.edges
        kept = [(keys[index], every[index]) for index in np.flatnonzero(self.positions.edge_record < self.records)]
        if not self.extra_edges:
            return kept
        added = [(f"{TAIL_KEY}{number}", edge) for number, edge in enumerate(self.extra_edges)]
        return sorted(kept + added, key=lambda pair: pair[1].sort_key)  # stable: equal edges are the same edge

    @property
    def schema(self):
        return self.positions.graph.schema

    def as_graph(self) -> Graph:
        """A real Graph with the same content (for proofs and tests; the sweep never needs one)."""
        return Graph(self.nodes, self.edges, self.full.schema)
