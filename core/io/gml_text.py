"""A linear GML reader: one regular-expression pass over the text, then the graph's records.

networkx's parse_gml takes ~4.5 s per MB (a 20 MB file within the import limits ran for minutes);
this reader follows its rules in one pass: `key value` pairs, values are integers, reals, "strings"
(HTML entities unescaped; line breaks kept) or `[ ... ]` lists; a key given twice holds a list of
its values. The document holds one `graph [ ... ]` with `node [ id ... ]` and
`edge [ source ... target ... ]` records; node ids must be unique, edges must join declared nodes,
and without `multigraph 1` an edge may not repeat (in an undirected graph, in either direction).
Every fault is a LoadError with the line and column.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from core.errors import LoadError
from core.io.limits import Limits
from core.io.text import line_of

_TOKEN = re.compile(r"""
    (?P<space>(?:\s+|\#[^\n]*)+)
  | (?P<key>[A-Za-z][0-9A-Za-z_]*)\b
  | (?P<real>[+-]?(?:[0-9]*\.[0-9]+|[0-9]+\.[0-9]*|INF)(?:[Ee][+-]?[0-9]+)?)
  | (?P<int>[+-]?[0-9]+)
  | (?P<string>"[^"]*")
  | (?P<open>\[)
  | (?P<close>\])
""", re.VERBOSE)
_LIST = object()  # marks a list value while it is being read
_FIX = "check the brackets and quotes (every `[` closed by `]`, every string in double quotes)"


@dataclass(frozen=True)
class ParsedGML:
    directed: bool
    nodes: list[tuple[object, dict]]  # (id value, attributes)
    edges: list[tuple[object, object, dict]]  # (source id, target id, attributes)


def read_gml(text: str, source: str, limits: Limits) -> ParsedGML:
    document = _Reader(text, source, limits).document()
    graph = document.get("graph")
    if graph is None or not isinstance(graph, dict):
        what = "more than one `graph [ ... ]`" if isinstance(graph, list) else "no `graph [ ... ]` list"
        raise LoadError(f"the GML is malformed: the file holds {what}", source, "write one graph [ ... ] around the nodes and edges")
    return _records(graph, source)


class _Reader:
    def __init__(self, text: str, source: str, limits: Limits) -> None:
        self.text, self.source, self.limits = text, source, limits
        self.tokens = _TOKEN.finditer(text)  # lazily: a bad token stops the reading where it is

    def _where(self, offset: int) -> str:
        line = line_of(self.text, offset)
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return f"{self.source}, line {line}, column {column}"

    def _next(self, position: int) -> re.Match | None:
        """The next token that is not space, or None at the end; text no token matches is refused."""
        while True:
            match = next(self.tokens, None) if position < len(self.text) else None
            if match is None or match.start() != position:
                if position < len(self.text):
                    shown = self.text[position:position + 40].split("\n")[0]
                    hint = " (a string that is never closed?)" if shown.startswith('"') else ""
                    raise LoadError(f"the GML is malformed: unexpected text {shown!r}{hint}", self._where(position), _FIX)
                return None
            if match.lastgroup != "space":
                return match
            position = match.end()

    def document(self) -> dict:
        values, match = self._pairs(0, depth=0)
        if match is not None:
            raise LoadError("the GML is malformed: a `]` closes a list that was never opened",
                            self._where(match.start()), _FIX)
        return values

    def _pairs(self, position: int, depth: int) -> tuple[dict, re.Match | None]:
        """Key-value pairs up to a `]` (returned) or the end (None)."""
        values: dict = {}
        repeated: set[str] = set()
        while True:
            match = self._next(position)
            if match is None or match.lastgroup == "close":
                return values, match
            if match.lastgroup != "key":
                raise LoadError(f"the GML is malformed: expected a key, found {match.group()[:40]!r}",
                                self._where(match.start()), _FIX)
            key = match.group("key")
            value_match = self._next(match.end())
            if value_match is None:
                raise LoadError(f"the GML is malformed: the key {key!r} has no value", self._where(match.start()), _FIX)
            value, position = self._value(value_match, depth)
            if key in repeated:  # a repeated key holds a list of its values, as in networkx
                values[key].append(value)
            elif key in values:
                values[key] = [values[key], value]
                repeated.add(key)
            else:
                values[key] = value

    def _value(self, match: re.Match, depth: int) -> tuple[object, int]:
        kind = match.lastgroup
        if kind == "int":
            text = match.group()
            if len(text) > 4000:
                raise LoadError("the GML is malformed: an integer is too long", self._where(match.start()),
                                "write numbers with at most a few hundred digits, or as text")
            return int(text), match.end()
        if kind == "real":
            return float(match.group()), match.end()
        if kind == "string":
            text = html.unescape(match.group()[1:-1])
            self.limits.check_string(text, self.source, self._where(match.start()).split(", ", 1)[1])
            return text, match.end()
        if kind == "open":
            if depth + 1 > self.limits.max_depth:
                self.limits.check_depth(depth + 1, self.source, self._where(match.start()).split(", ", 1)[1])
            values, closing = self._pairs(match.end(), depth + 1)
            if closing is None:
                raise LoadError("the GML is malformed: a `[` is never closed", self._where(match.start()), _FIX)
            return values, closing.end()
        raise LoadError(f"the GML is malformed: expected a value, found {match.group()[:40]!r}",
                        self._where(match.start()), _FIX)


def _records(graph: dict, source: str) -> ParsedGML:
    directed = graph.get("directed", 0) == 1
    multigraph = graph.get("multigraph", 0) == 1
    nodes: list[tuple[object, dict]] = []
    seen: set = set()
    for index, node in enumerate(_listed(graph.get("node"))):
        if not isinstance(node, dict) or "id" not in node:
            raise LoadError(f"node #{index} has no 'id'", source, "give every node an `id`")
        attributes = dict(node)
        node_id = attributes.pop("id")
        if not isinstance(node_id, (int, float, str)):
            raise LoadError(f"node #{index} has an id that is a list", source, "give every node a number or text id")
        if node_id in seen:
            raise LoadError(f"the GML is malformed: node id {node_id!r} is duplicated", source,
                            "give every node its own `id`")
        seen.add(node_id)
        nodes.append((node_id, attributes))
    edges: list[tuple[object, object, dict]] = []
    pairs: set = set()
    for index, edge in enumerate(_listed(graph.get("edge"))):
        attributes = dict(edge) if isinstance(edge, dict) else {}
        for end in ("source", "target"):
            if end not in attributes:
                raise LoadError(f"edge #{index} has no {end!r}", source, "give every edge a source and a target")
            if _hashable(attributes[end]) not in seen:
                raise LoadError(f"edge #{index} has undefined {end} {attributes[end]!r}", source,
                                "declare the node, or correct the edge's end")
        start, stop = attributes.pop("source"), attributes.pop("target")
        key = attributes.pop("key", None) if multigraph else None
        pair = (start, stop, key) if directed else (frozenset((start, stop)), key)
        if pair in pairs and (not multigraph or key is not None):
            arrow = "->" if directed else "--"
            raise LoadError(f"the GML is malformed: edge #{index} ({start!r}{arrow}{stop!r}) is duplicated", source,
                            "add `multigraph 1` inside `graph [ ... ]` to keep repeated edges" if not multigraph
                            else "give repeated edges different `key` values")
        pairs.add(pair)
        edges.append((start, stop, attributes))
    return ParsedGML(directed, nodes, edges)


def _listed(value: object) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _hashable(value: object) -> object:
    return value if isinstance(value, (int, float, str)) else id(value)
