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

# Run with finditer over the whole untrusted file. Safe: each alternative starts with a different
# character class, and the one repeated group (white space and comments) is possessive, so a token is
# read once, never re-split.
_TOKEN = re.compile(r"""
    (?P<space>(?:\s++|\#[^\n]*+)++)
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
    """One flat loop over the tokens with an explicit stack of open lists (no recursion, no per-token calls)."""

    def __init__(self, text: str, source: str, limits: Limits) -> None:
        self.text, self.source, self.limits = text, source, limits

    def _where(self, offset: int) -> str:
        line = line_of(self.text, offset)
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return f"line {line}, column {column}"

    def _fault(self, what: str, offset: int) -> LoadError:
        return LoadError(f"the GML is malformed: {what}", f"{self.source}, {self._where(offset)}", _FIX)

    def document(self) -> dict:
        text, limits = self.text, self.limits
        # Each open list: (its values, keys given twice, its key in the parent, where it opens).
        stack: list[tuple[dict, set, str, int]] = [({}, set(), "", 0)]
        key: str | None = None
        key_start = position = 0
        for match in _TOKEN.finditer(text):
            if match.start() != position:
                break  # text no token matches: refused below
            position = match.end()
            kind = match.lastgroup
            if kind == "space":
                continue
            if key is None:
                if kind == "key":
                    key, key_start = match.group(kind), match.start()
                    continue
                if kind == "close" and len(stack) > 1:
                    values, _, list_key, _ = stack.pop()
                    _store(stack[-1], list_key, values)
                    continue
                if kind == "close":
                    raise self._fault("a `]` closes a list that was never opened", match.start())
                raise self._fault(f"expected a key, found {match.group()[:40]!r}", match.start())
            if kind == "open":
                if len(stack) > limits.max_depth:
                    limits.check_depth(len(stack), self.source, self._where(match.start()))
                stack.append(({}, set(), key, match.start()))
            elif kind == "int":
                if len(match.group()) > 4000:
                    raise self._fault("an integer is too long (write it as text)", match.start())
                _store(stack[-1], key, int(match.group()))
            elif kind == "real":
                _store(stack[-1], key, float(match.group()))
            elif kind == "string":
                value = match.group()[1:-1]
                if "&" in value:
                    value = html.unescape(value)
                if len(value) > limits.max_string_length:
                    limits.check_string(value, self.source, self._where(match.start()))
                _store(stack[-1], key, value)
            elif kind == "key":  # an unquoted word as a value (`id A`): text, as networkx 3.6 reads it
                if len(match.group()) > limits.max_string_length:
                    limits.check_string(match.group(), self.source, self._where(match.start()))
                _store(stack[-1], key, match.group())
            else:
                raise self._fault(f"the key {key!r} has no value (found {match.group()!r})", match.start())
            key = None
        if position != len(text):
            shown = text[position:position + 40].split("\n")[0]
            hint = " (a string that is never closed?)" if shown.startswith('"') else ""
            raise self._fault(f"unexpected text {shown!r}{hint}", position)
        if key is not None:
            raise self._fault(f"the key {key!r} has no value", key_start)
        if len(stack) > 1:
            raise self._fault("a `[` is never closed", stack[-1][3])
        return stack[0][0]


def _store(frame: tuple[dict, set, str, int], key: str, value: object) -> None:
    """A repeated key holds a list of its values, as in networkx."""
    values, repeated = frame[0], frame[1]
    if key in repeated:
        values[key].append(value)
    elif key in values:
        values[key] = [values[key], value]
        repeated.add(key)
    else:
        values[key] = value


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
