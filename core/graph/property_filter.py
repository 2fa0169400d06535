"""Property filtering before rendering: keep or drop node and edge properties by name or pattern.

A pattern is a name or a shell-style wildcard (`fnmatch`, case-sensitive: `embedding*`, `*_id`), never a
regular expression (no pattern can backtrack on a long name). `node:PATTERN` or `edge:PATTERN` applies
to one kind only. `include` keeps only the properties some include pattern matches (none: keep all);
`exclude` then drops those an exclude pattern matches. Ids, types and relations are not properties and
are always kept. LangChain #22755: embeddings returned into the context "consume all context window
tokens"; `exclude=("embedding*",)` drops them before any format writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase

from core.errors import ParameterError
from core.graph.model import Edge, Graph, Node, Properties

KINDS = ("node", "edge")


@dataclass(frozen=True)
class PropertyFilter:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    restored: tuple[tuple[str, str], ...] = ()  # (kind, name) kept whatever the patterns say

    def __post_init__(self) -> None:
        for pattern in (*self.include, *self.exclude):
            kind, _, rest = pattern.partition(":")
            if not pattern.strip() or (rest == "" and kind in KINDS and pattern.endswith(":")):
                raise ParameterError(f"empty property pattern {pattern!r}", "property filter",
                                     "give a property name or a pattern such as embedding* or node:*_id")

    @property
    def active(self) -> bool:
        return bool(self.include or self.exclude)

    def keeps(self, kind: str, name: str) -> bool:
        """Whether a `kind` ("node" or "edge") property called `name` survives the filter."""
        if (kind, name) in self.restored:
            return True
        if self.include and not any(_matches(pattern, kind, name) for pattern in self.include):
            return False
        return not any(_matches(pattern, kind, name) for pattern in self.exclude)

    def describe(self) -> str:
        parts = ([f"keep only {', '.join(self.include)}"] if self.include else []) + \
                ([f"drop {', '.join(self.exclude)}"] if self.exclude else [])
        return "; ".join(parts) or "every property kept"


def _matches(pattern: str, kind: str, name: str) -> bool:
    prefix, separator, rest = pattern.partition(":")
    if separator and prefix in KINDS:
        return prefix == kind and fnmatchcase(name, rest)
    return fnmatchcase(name, pattern)


def _kept(properties: Properties, kind: str, chosen: PropertyFilter) -> Properties:
    return tuple((name, value) for name, value in properties if chosen.keeps(kind, name))


def filter_properties(graph: Graph, chosen: PropertyFilter) -> Graph:
    """The graph with only the properties the filter keeps (the same graph when the filter is inactive)."""
    if not chosen.active:
        return graph
    nodes = [Node(node.id, node.type, _kept(node.properties, "node", chosen)) for node in graph.nodes]
    edges = [Edge(edge.source, edge.relation, edge.target, _kept(edge.properties, "edge", chosen))
             for edge in graph.edges]
    return Graph.build(nodes, edges, graph.schema)


def dropped_properties(graph: Graph, chosen: PropertyFilter) -> tuple[tuple[str, str], ...]:
    """(kind, name) of every property name the filter drops from this graph, sorted."""
    names = {("node", name) for node in graph.nodes for name, _ in node.properties} | \
            {("edge", name) for edge in graph.edges for name, _ in edge.properties}
    return tuple(sorted(item for item in names if not chosen.keeps(*item)))


def restoring(chosen: PropertyFilter, kind: str, name: str) -> PropertyFilter:
    """The filter with one (kind, name) property kept again, and nothing else changed."""
    return PropertyFilter(chosen.include, chosen.exclude, (*chosen.restored, (kind, name)))
