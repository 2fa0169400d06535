"""The figures of one complete rendering: bytes, characters, exact tokens, grammar tokens, records, round trip and
whether the decoded text still answers each query."""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import FormatError
from core.formats.base import Format
from core.graph.model import Graph
from core.graph.units import graph_units
from core.queries import Query
from core.tokens.protocol import Tokenizer


@dataclass(frozen=True)
class FormatFigures:
    name: str
    lossless: bool
    text: str
    utf8_bytes: int
    characters: int
    tokens: int
    grammar_tokens: int
    records: int
    round_trip_equal: bool
    query_checks: dict[str, bool]
    decode_error: str

    @property
    def traversal_accuracy(self) -> float | None:
        """The share of the queries answered from the decoded text; None when no query was asked (nothing measured)."""
        return sum(self.query_checks.values()) / len(self.query_checks) if self.query_checks else None


def measure_format(graph: Graph, format_: Format, tokenizer: Tokenizer, queries: dict[str, Query],
                   gold: dict[str, object]) -> FormatFigures:
    """Render the whole graph in canonical order, decode it back and run the queries on the result."""
    rendering = format_.render(graph, graph_units(graph))
    text = rendering.text
    try:
        decoded = format_.decode(text)
        decode_error = ""
    except FormatError as error:
        decoded, decode_error = None, str(error)
    checks = {name: decoded is not None and query.solve(decoded).answer == gold[name]
              for name, query in queries.items()}
    return FormatFigures(
        name=format_.name, lossless=format_.lossless, text=text, utf8_bytes=len(text.encode("utf-8")),
        characters=len(text), tokens=tokenizer.count(text), grammar_tokens=tokenizer.count(format_.grammar),
        records=len(rendering.records), round_trip_equal=decoded == graph, query_checks=checks,
        decode_error=decode_error)
