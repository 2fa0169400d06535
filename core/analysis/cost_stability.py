"""Cost stability: how far a format's token count moves when only the node names or the record order change.

"Lost in Serialization" (arXiv 2511.10234) shows answers moving when only labels or edge order
change; the cost moves too. Per format, the complete text is counted on the graph as it is, with
its node ids relabelled (`names` as given, `opaque` hash-like ids, `numbers` 0, 1, 2, ... in
canonical order) and with its units in seeded random orders. Each spread gives the counts and
their minimum, median, maximum and max/min ratio; a ratio of 1.00 means the cost does not move.
"""

from __future__ import annotations

import hashlib
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from core.errors import ParameterError
from core.formats import FORMATS
from core.formats.base import forget_records
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.tokens import TOKENIZERS

RELABELINGS = ("names", "opaque", "numbers")
DEFAULT_PERMUTATIONS = 5
MAX_PERMUTATIONS = 100


@dataclass(frozen=True)
class CostSpread:
    """Token counts of one format's complete text under one kind of change, in the order the variants were made."""

    variants: tuple[str, ...]
    counts: tuple[int, ...]

    @property
    def minimum(self) -> int:
        return min(self.counts)

    @property
    def median(self) -> float:
        return statistics.median(self.counts)

    @property
    def maximum(self) -> int:
        return max(self.counts)

    @property
    def ratio(self) -> float:
        """max / min (1.0 when the cost does not move; an empty text counts as one token here)."""
        return self.maximum / max(self.minimum, 1)

    def as_dict(self) -> dict:
        return {"counts": dict(zip(self.variants, self.counts)), "min": self.minimum, "median": self.median,
                "max": self.maximum, "max_over_min": round(self.ratio, 4)}


@dataclass(frozen=True)
class FormatStability:
    format_name: str
    relabeled: CostSpread
    permuted: CostSpread


def opaque_id(node_id: str, length: int = 8) -> str:
    """A hash-like id that says nothing about the name (`id-3f2a9c1b`)."""
    return "id-" + hashlib.sha256(node_id.encode("utf-8", "surrogatepass")).hexdigest()[:length]


def relabeling(graph: Graph, scheme: str) -> dict[str, str]:
    """Node id -> new id under a scheme: `names` keeps them, `opaque` hashes them, `numbers` counts in canonical order."""
    ids = [node.id for node in graph.nodes]
    if scheme == "names":
        return {node_id: node_id for node_id in ids}
    if scheme == "numbers":
        return {node_id: str(index) for index, node_id in enumerate(ids)}
    if scheme == "opaque":
        length = 8
        while len({opaque_id(node_id, length) for node_id in ids}) < len(ids):  # a collision: longer hashes
            length += 4
        return {node_id: opaque_id(node_id, length) for node_id in ids}
    raise ParameterError(f"unknown relabeling {scheme!r}", "relabeling", f"use one of: {', '.join(RELABELINGS)}")


def relabeled(graph: Graph, scheme: str) -> Graph:
    """The same graph with its node ids renamed (types, relations and properties unchanged)."""
    names = relabeling(graph, scheme)
    if scheme == "names":
        return graph
    return Graph.build([Node(names[node.id], node.type, node.properties) for node in graph.nodes],
                       [Edge(names[edge.source], edge.relation, names[edge.target], edge.properties)
                        for edge in graph.edges], graph.schema)


def permutation_seeds(count: int, seed: int = 0) -> tuple[int, ...]:
    return tuple(seed + index for index in range(count))


def cost_stability(graph: Graph, tokenizer_name: str, format_names: Sequence[str] | None = None,
                   permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0) -> tuple[FormatStability, ...]:
    """Per format, the token counts of its complete text under relabelling and under `permutations` unit orders."""
    if not 1 <= permutations <= MAX_PERMUTATIONS:
        raise ParameterError(f"permutations = {permutations} is outside 1-{MAX_PERMUTATIONS}", "permutations",
                             f"give 1 to {MAX_PERMUTATIONS} random orders")
    tokenizer = TOKENIZERS.get(tokenizer_name)
    names = list(format_names or FORMATS.names())
    variants = {scheme: relabeled(graph, scheme) for scheme in RELABELINGS}
    units = graph_units(graph)
    orders = []
    for each in permutation_seeds(permutations, seed):
        shuffled = list(units)
        random.Random(each).shuffle(shuffled)
        orders.append(shuffled)
    found = []
    for name in names:
        format_ = FORMATS.get(name)
        relabel_counts = tuple(tokenizer.count(format_.render(variant, graph_units(variant)).text)
                               for variant in variants.values())
        order_counts = tuple(tokenizer.count(format_.render(graph, order).text) for order in orders)
        found.append(FormatStability(name, CostSpread(RELABELINGS, relabel_counts),
                                     CostSpread(tuple(f"seed {each}" for each in permutation_seeds(permutations, seed)),
                                                order_counts)))
    for variant in variants.values():
        if variant is not graph:
            forget_records(variant)  # one-off graphs: their records would otherwise stay in the memos
    return tuple(found)


def stability_rows(stabilities: Sequence[FormatStability]) -> dict[str, list]:
    """Columns for a table: per format, the spread under relabelling and under reordering."""
    return {
        "format": [item.format_name for item in stabilities],
        "relabel min": [item.relabeled.minimum for item in stabilities],
        "relabel median": [item.relabeled.median for item in stabilities],
        "relabel max": [item.relabeled.maximum for item in stabilities],
        "relabel max/min": [round(item.relabeled.ratio, 3) for item in stabilities],
        "order min": [item.permuted.minimum for item in stabilities],
        "order median": [item.permuted.median for item in stabilities],
        "order max": [item.permuted.maximum for item in stabilities],
        "order max/min": [round(item.permuted.ratio, 3) for item in stabilities],
    }
