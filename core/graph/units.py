"""Units: what can survive or be cut — one per node and one per edge, with a stable key and a hop level."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from core.graph.derived import derived
from core.graph.model import Edge, Graph, Node

UNREACHABLE = math.inf


def escape_key_atom(value: str) -> str:
    """Escape `\\` and `|` so that an edge key splits back into its parts unambiguously."""
    if "\\" not in value and "|" not in value:
        return value
    return value.replace("\\", "\\\\").replace("|", "\\p")


def node_key(node_id: str) -> str:
    return f"n:{node_id}"


def edge_key(edge: Edge, occurrence: int = 0) -> str:
    """`e:<source>|<relation>|<target>`; the n-th parallel copy of the same triple gets `|n`."""
    base = f"e:{escape_key_atom(edge.source)}|{escape_key_atom(edge.relation)}|{escape_key_atom(edge.target)}"
    return base if occurrence == 0 else f"{base}|{occurrence}"


@dataclass(frozen=True, slots=True)
class NodeUnit:
    """A node as a unit. `is_node` and `edge` are class constants so that `if unit.is_node:` narrows a `Unit`
    to this class for the type checker, and `unit.node` needs no None check after it."""

    key: str
    node: Node
    hop: float = UNREACHABLE
    is_node: ClassVar[Literal[True]] = True
    edge: ClassVar[None] = None


@dataclass(frozen=True, slots=True)
class EdgeUnit:
    """An edge as a unit; the counterpart of `NodeUnit`."""

    key: str
    edge: Edge
    hop: float = UNREACHABLE
    is_node: ClassVar[Literal[False]] = False
    node: ClassVar[None] = None


# What can survive or be cut: exactly one of the two. Narrow with `unit.is_node` (or isinstance).
Unit = NodeUnit | EdgeUnit


def unit_edges(units: Iterable[Unit]) -> list[Edge]:
    """The edges of the edge units among `units`, in their order."""
    return [unit.edge for unit in units if not unit.is_node]


def edge_keys(graph: Graph) -> Iterator[tuple[str, Edge]]:
    """Keys of the graph's edges in canonical order, numbering parallel copies of a triple."""
    return zip(_edge_key_list(graph), graph.edges)


def _edge_key_list(graph: Graph) -> list[str]:
    def build() -> list[str]:
        keys = list(map(edge_key, graph.edges))
        if len(set(keys)) == len(keys):
            return keys  # no parallel copies (the common case): nothing to number
        seen: Counter[str] = Counter()  # escaping makes a key unique to its triple: equal keys are copies
        for index, (key, edge) in enumerate(zip(keys, graph.edges)):
            if seen[key]:
                keys[index] = edge_key(edge, seen[key])
            seen[key] += 1
        return keys

    return derived(graph, "edge keys", build)


def graph_units(graph: Graph, hops: Mapping[str, float] | None = None) -> tuple[Unit, ...]:
    """All units in canonical order: nodes by id, then edges in canonical order.

    With `hops` (node id -> distance from the seeds), node units get their distance and edge units
    the larger of their endpoints' distances; without, every unit is unreachable (built once per graph).
    """
    if not hops:
        return derived(graph, "units", lambda: _units(graph, {}))
    return _units(graph, hops)


def _units(graph: Graph, hops: Mapping[str, float]) -> tuple[Unit, ...]:
    if not hops:  # every unit unreachable: the graph's own units, made without a lookup per unit
        return (*(NodeUnit(node_key(node.id), node) for node in graph.nodes),
                *(EdgeUnit(key, edge) for key, edge in edge_keys(graph)))
    node_units: list[Unit] = [NodeUnit(node_key(node.id), node=node, hop=hops.get(node.id, UNREACHABLE))
                              for node in graph.nodes]
    edge_units: list[Unit] = [EdgeUnit(key, edge=edge,
                                       hop=max(hops.get(edge.source, UNREACHABLE), hops.get(edge.target, UNREACHABLE)))
                              for key, edge in edge_keys(graph)]
    return tuple(node_units + edge_units)
