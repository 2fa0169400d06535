"""What a node picker offers: every node of a graph of ordinary size; on a larger one, the chosen nodes and the
best-connected ones, with any other id typed.

Why: a picker sends its whole option list to the browser on every full run, and the browser draws and
filters it; on the 200,000-edge scale-free graph the seed box and a query's node box held 40,000 ids
each (1.2 MB a run, two seconds of drawing). The nodes a person picks from a list are the hubs; any
other node is picked by typing its id, which is then checked like every seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter

from core.graph.derived import derived
from core.graph.model import Graph

NODE_CHOICES = 1_000  # a picker lists every node up to this many, else this many (the chosen first)


@dataclass(frozen=True)
class NodeChoices:
    """The ids a picker lists, and whether the graph has more (then any id may be typed)."""

    options: tuple[str, ...]
    total: int

    @property
    def bounded(self) -> bool:
        return len(self.options) < self.total

    @property
    def note(self) -> str:
        """What the list holds, for a caption ("" when it holds every node)."""
        if not self.bounded:
            return ""
        return (f"The list shows {len(self.options):,} of the graph's {self.total:,} nodes (the chosen ones, then "
                "the most connected); type any other node id and press Enter.")


def node_choices(graph: Graph, chosen: Iterable[str] = (), limit: int | None = None) -> NodeChoices:
    """Every node id of the graph (canonical order) when it has at most `limit` (NODE_CHOICES) nodes; else the
    `chosen` ids that are nodes, then the nodes of highest degree (ties by id), `limit` in all."""
    limit = NODE_CHOICES if limit is None else limit
    ids = [node.id for node in graph.nodes]
    if len(ids) <= limit:
        return NodeChoices(tuple(ids), len(ids))
    known = graph.node_by_id
    picked = [node_id for node_id in dict.fromkeys(chosen) if node_id in known][:limit]
    taken = set(picked)
    hubs = (node_id for node_id in _by_degree(graph) if node_id not in taken)
    picked += [node_id for _, node_id in zip(range(limit - len(picked)), hubs)]
    return NodeChoices(tuple(picked), len(ids))


def _by_degree(graph: Graph) -> tuple[str, ...]:
    """Node ids by degree (in plus out), highest first, ties by id; counted once per graph."""
    def build() -> tuple[str, ...]:
        degree = Counter(map(attrgetter("source"), graph.edges))  # counted in C: a second on 200,000 edges before
        degree.update(map(attrgetter("target"), graph.edges))
        # nodes come sorted by id, and the sort is stable: ties stay by id
        return tuple(sorted((node.id for node in graph.nodes), key=lambda node_id: -degree.get(node_id, 0)))

    return derived(graph, "nodes by degree", build)
