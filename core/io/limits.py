"""Size limits for imported graphs, checked before parsing (bytes) and after it (counts, text, nesting)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from core.errors import LoadError
from core.graph.model import Graph


class LimitError(LoadError):
    """A file or graph exceeds a limit: refused whatever its format."""


@dataclass(frozen=True)
class Limits:
    """What an import accepts. Every limit can be raised (the CLI has a `--max-...` option for each)."""

    max_bytes: int = 20_000_000  # 20 MB: GraphML parsing takes ~27 times that in memory
    max_nodes: int = 50_000
    max_edges: int = 200_000
    max_string_length: int = 100_000  # characters in one id, type, relation, property key or value
    max_depth: int = 64  # nesting of JSON values, XML elements or GML lists

    def check_bytes(self, size: int, source: str) -> None:
        if size > self.max_bytes:
            raise LimitError(f"the file is too large: {size:,} bytes, the limit is {self.max_bytes:,} bytes",
                            source, "load a smaller graph, or raise the limit (--max-bytes)")

    def check_depth(self, depth: int, source: str, where: str = "") -> None:
        if depth > self.max_depth:
            place = f"{source}, {where}" if where else source
            raise LimitError(f"the file nests too deeply: more than {self.max_depth} levels",
                            place, "a graph file needs only a few levels; raise the limit (--max-depth) "
                                   "only for a file you trust")

    def check_string(self, text: str, source: str, where: str) -> None:
        if len(text) > self.max_string_length:
            raise LimitError(f"a text value is too long: {len(text):,} characters, the limit is "
                            f"{self.max_string_length:,}", f"{source}, {where}",
                            "shorten the value, or raise the limit (--max-string-length)")

    def check_counts(self, nodes: int, edges: int, source: str) -> None:
        if nodes > self.max_nodes:
            raise LimitError(f"the graph is too large: {nodes:,} nodes, the limit is {self.max_nodes:,}", source,
                            "load a smaller graph, or raise the limit (--max-nodes)")
        if edges > self.max_edges:
            raise LimitError(f"the graph is too large: {edges:,} edges, the limit is {self.max_edges:,}", source,
                            "load a smaller graph, or raise the limit (--max-edges)")

    def check_graph(self, graph: Graph, source: str) -> None:
        """Counts and text lengths of a parsed graph."""
        self.check_counts(len(graph.nodes), len(graph.edges), source)
        for text, where in _texts(graph):
            self.check_string(text, source, where)


DEFAULT_LIMITS = Limits()


def _texts(graph: Graph) -> Iterator[tuple[str, str]]:
    for node in graph.nodes:
        where = f"node {node.id[:40]!r}"
        yield node.id, where
        yield node.type, where
        for key, value in node.properties:
            yield key, where
            if isinstance(value, str):
                yield value, f"{where}, property {key[:40]!r}"
    for edge in graph.edges:
        where = f"edge {edge.source[:40]!r} -[{edge.relation[:40]}]-> {edge.target[:40]!r}"
        for text in (edge.relation,) + tuple(key for key, _ in edge.properties):
            yield text, where
        for key, value in edge.properties:
            if isinstance(value, str):
                yield value, f"{where}, property {key[:40]!r}"
