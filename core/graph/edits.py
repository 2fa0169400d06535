"""Graph edits: one change to a graph (a node added, an edge removed, a property changed), drawn with a recorded seed.

An edit never removes a node, so the seeds a rendering is anchored on stay in the edited graph. `draw_edits`
draws each edit from the original graph independently (edit i from seed `edit_seed + i`), so N edits are N
samples of "the graph after one change", not a chain of changes.

- `add_node`: a sibling of a node drawn at random (its type and properties), whose id sorts right after it,
  linked in the place of one of that node's edges drawn at random (`x -[r]-> t` gives `x-added-7 -[r]-> t`).
  New entities arrive linked; an isolated node would only ever land at the end of a seed-anchored context.
- `remove_edge`: an edge drawn at random is taken out.
- `change_property`: a property value of a node or an edge drawn at random changes (text gets " (edited)", a
  number + 1, true/false flips); on a graph without properties a node drawn at random gets `edited: true`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from core.errors import ParameterError
from core.graph.model import Edge, Graph, Node, PropertyValue
from core.graph.units import edge_keys, node_key

EDIT_KINDS = ("add_node", "remove_edge", "change_property")
MAX_EDITS = 1_000

Item = TypeVar("Item", Node, Edge)


@dataclass(frozen=True)
class GraphEdit:
    """One edit: its kind, what it did in words, the seed it was drawn with, the unit keys it adds, removes or
    changes, and the edited graph (built with `Graph.build`, the original untouched)."""

    kind: str
    what: str
    seed: int
    unit_keys: frozenset[str]
    graph: Graph = field(repr=False, compare=False)

    def as_dict(self) -> dict:
        return {"kind": self.kind, "what": self.what, "seed": self.seed, "units": sorted(self.unit_keys)}


def edit_seeds(count: int, edit_seed: int = 0) -> tuple[int, ...]:
    """The seed of each edit: `edit_seed`, `edit_seed + 1`, ... (so one seed reproduces the whole list)."""
    return tuple(edit_seed + index for index in range(count))


def draw_edits(graph: Graph, count: int, edit_seed: int = 0) -> tuple[GraphEdit, ...]:
    """`count` edits of `graph`, each applied to the original graph on its own."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_EDITS:
        raise ParameterError(f"{count!r} edits", "edits", f"give 1 to {MAX_EDITS:,} edits")
    return tuple(draw_edit(graph, seed) for seed in edit_seeds(count, edit_seed))


def draw_edit(graph: Graph, seed: int) -> GraphEdit:
    """One edit drawn with `random.Random(seed)`: first its kind among those the graph allows, then what it changes."""
    if not graph.nodes:
        raise ParameterError("an empty graph has nothing to edit", "graph", "load a graph with nodes")
    draw = random.Random(seed)
    kinds = [kind for kind in EDIT_KINDS if kind != "remove_edge" or graph.edges]
    kind = draw.choice(kinds)
    return _EDITORS[kind](graph, draw, seed)


def _add_node(graph: Graph, draw: random.Random, seed: int) -> GraphEdit:
    sibling = draw.choice(graph.nodes)
    new_id = _free_id(graph, f"{sibling.id}-added-{seed}")
    node = Node(new_id, sibling.type, sibling.properties)
    incident = [edge for edge in graph.edges if sibling.id in (edge.source, edge.target)]
    edges = list(graph.edges)
    keys = {node_key(new_id)}
    what = f"node {new_id} ({sibling.type}) added beside {sibling.id}"
    if incident:
        template = draw.choice(incident)
        link = (Edge(new_id, template.relation, template.target, template.properties) if template.source == sibling.id
                else Edge(template.source, template.relation, new_id, template.properties))
        edges.append(link)
        what += f", linked {link.source} -[{link.relation}]-> {link.target}"
    edited = Graph.build([*graph.nodes, node], edges, graph.schema)
    keys |= {key for key, edge in edge_keys(edited) if new_id in (edge.source, edge.target)}
    return GraphEdit("add_node", what, seed, frozenset(keys), edited)


def _remove_edge(graph: Graph, draw: random.Random, seed: int) -> GraphEdit:
    index = draw.randrange(len(graph.edges))
    key, edge = list(edge_keys(graph))[index]
    edited = Graph.build(graph.nodes, graph.edges[:index] + graph.edges[index + 1:], graph.schema)
    return GraphEdit("remove_edge", f"edge {edge.source} -[{edge.relation}]-> {edge.target} removed", seed,
                     frozenset({key}), edited)


def _change_property(graph: Graph, draw: random.Random, seed: int) -> GraphEdit:
    nodes, edges = list(graph.nodes), list(graph.edges)
    keyed_edges = list(edge_keys(graph))
    places = ([("node", index, name) for index, node in enumerate(nodes) for name, _ in node.properties]
              + [("edge", index, name) for index, edge in enumerate(edges) for name, _ in edge.properties])
    if not places:  # nothing to change: a new property is the smallest edit of a value
        index = draw.randrange(len(nodes))
        nodes[index] = replace(nodes[index], properties=(("edited", True),))
        return GraphEdit("change_property", f"property edited = true set on node {nodes[index].id}", seed,
                         frozenset({node_key(nodes[index].id)}), Graph.build(nodes, edges, graph.schema))
    where, index, name = draw.choice(places)
    if where == "node":
        nodes[index], old, new = _changed(nodes[index], name)
        key, owner = node_key(nodes[index].id), f"node {nodes[index].id}"
    else:
        edges[index], old, new = _changed(edges[index], name)
        key, edge = keyed_edges[index]
        owner = f"edge {edge.source} -[{edge.relation}]-> {edge.target}"
    return GraphEdit("change_property", f"property {name} of {owner}: {old!r} -> {new!r}", seed, frozenset({key}),
                     Graph.build(nodes, edges, graph.schema))


def _changed(item: Item, name: str) -> tuple[Item, PropertyValue, PropertyValue]:
    """The node or edge with property `name` changed (the properties' order kept), the old value and the new."""
    old = dict(item.properties)[name]
    new = _new_value(old)
    properties = tuple((key, new if key == name else value) for key, value in item.properties)
    return replace(item, properties=properties), old, new


def _new_value(value: PropertyValue) -> PropertyValue:
    if isinstance(value, bool):  # before int: a bool is an int
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    return f"{value} (edited)"


def _free_id(graph: Graph, wanted: str) -> str:
    """`wanted`, or `wanted-2`, `wanted-3`, ... where a node already has that id."""
    taken, candidate, number = graph.node_by_id, wanted, 1
    while candidate in taken:
        number += 1
        candidate = f"{wanted}-{number}"
    return candidate


_EDITORS: dict[str, Callable[[Graph, random.Random, int], GraphEdit]] = {
    "add_node": _add_node, "remove_edge": _remove_edge, "change_property": _change_property}


def touched(edit: GraphEdit, rendered_keys: Sequence[frozenset[str]]) -> bool:
    """Whether the edit adds, removes or changes a unit any of these renderings holds (original or edited)."""
    return any(edit.unit_keys & keys for keys in rendered_keys)
