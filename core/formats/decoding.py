"""Shared decoding helpers: strict JSON values, property objects, and the graph a decoder returns."""

from __future__ import annotations

import json
from collections.abc import Iterable

from core.errors import FormatError, GraphError
from core.graph.model import ORPHAN_TYPE, Edge, Graph, Node, Properties, freeze_properties


def decoded_graph(nodes: Iterable[Node], edges: Iterable[Edge]) -> Graph:
    """The graph a decoder returns.

    An edge whose endpoint has no node record (a truncated context) keeps its endpoint as a node of
    type "unknown"; node records that disagree are a format error, never last-write-wins.
    """
    try:
        return Graph.build(nodes, edges, missing_endpoints="create", missing_type=ORPHAN_TYPE)
    except GraphError as error:
        raise FormatError(error.what, error.where, "the text holds contradictory records; "
                          "render it again from the graph") from None


def parse_json(text: str, where: str = "", object_pairs_hook=None, *, line: int | None = None) -> object:
    """json.loads with every failure turned into a FormatError that says where (`line`: the text is that one line
    of a larger document, so the error names it instead of JSON's own line 1)."""
    try:
        return json.loads(text, object_pairs_hook=object_pairs_hook)
    except json.JSONDecodeError as error:
        place = f"{where}, " if where else ""
        number = error.lineno if line is None else line
        raise FormatError(f"invalid JSON: {error.msg}", f"{place}line {number} column {error.colno}",
                          "check the brackets, quotes and commas", line=number, offset=error.pos) from None
    except RecursionError:
        raise FormatError("JSON nested too deeply", where or "document",
                          "a graph document nests at most a few levels") from None
    except ValueError as error:  # e.g. an integer longer than Python's 4,300-digit conversion limit
        raise FormatError(f"unreadable JSON value: {error}", where or "document",
                          "write numbers with at most a few hundred digits, or as text") from None


def expect_string(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise FormatError(f"expected text, found {type(value).__name__} {value!r:.40}", where,
                          "write ids, types and relations as JSON strings")
    return value


def expect_object(value: object, where: str) -> dict:
    if not isinstance(value, dict):
        raise FormatError(f"expected an object, found {type(value).__name__}", where,
                          "see the format's grammar")
    return value


def expect_list(value: object, where: str) -> list:
    if not isinstance(value, list):
        raise FormatError(f"expected a list, found {type(value).__name__}", where, "see the format's grammar")
    return value


def properties_from(value: object, where: str) -> Properties:
    """A properties object: text keys, scalar values (text, number, true/false)."""
    mapping = expect_object(value, where)
    try:
        return freeze_properties(mapping, where)
    except GraphError as error:
        raise FormatError(error.what, where, error.fix) from None


def properties_from_json(text: str, where: str) -> Properties:
    return properties_from(parse_json(text, where), where)
