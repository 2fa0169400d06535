"""The one place where formats, orderings, queries and tokenizers are looked up by name."""

from __future__ import annotations

from typing import Generic, Iterable, Iterator, TypeVar

from core.errors import UnknownNameError
from core.formats import compact_json, csv_records, jsonl, pretty_json, typed_edges
from core.formats import (arrows, ckg_lines, edge_tuples, incident_text, local_ids, semantic_text,
                          typed_edges_dict, untyped_pairs)
from core.formats import (graphml, graphrag_tables, markdown_tables, structured_json, toon, turtle,
                          yaml_format)
from core.ordering import ORDERING_LIST
from core.queries import TEMPLATES
from core.questions.generation import GENERATOR_LIST
from core.tokenizers import TOKENIZER_LIST

T = TypeVar("T")


class Registry(Generic[T]):
    """Named entries, in registration order; duplicate names are refused, unknown names listed."""

    def __init__(self, kind: str, entries: Iterable[tuple[str, T]] = ()) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}
        for name, entry in entries:
            self.register(name, entry)

    def register(self, name: str, entry: T) -> T:
        if name in self._entries:
            raise ValueError(f"a {self.kind} named {name!r} is already registered")
        self._entries[name] = entry
        return entry

    def get(self, name: str) -> T:
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownNameError(f"unknown {self.kind} {name!r}", f"{self.kind} name",
                                   f"use one of: {', '.join(self._entries)}") from None

    def names(self) -> list[str]:
        return list(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def _formats(*modules) -> Iterator[tuple[str, object]]:
    for module in modules:
        yield module.FORMAT.name, module.FORMAT


FORMATS = Registry("format", _formats(
    pretty_json,
    compact_json,
    jsonl,
    csv_records,
    typed_edges,
    typed_edges_dict,
    local_ids,
    semantic_text,
    ckg_lines,
    edge_tuples,
    arrows,
    incident_text,
    untyped_pairs,
    toon,
    yaml_format,
    structured_json,
    turtle,
    graphml,
    markdown_tables,
    graphrag_tables,
))


# Tokenizers of the models people deploy (core.tokenizers.families); each loads its vocabulary file
# from an installed package on first use, so registering one costs nothing.
TOKENIZERS = Registry("tokenizer", [(tokenizer.name, tokenizer) for tokenizer in TOKENIZER_LIST])

# Orderings are applied identically to every format (core.ordering).
ORDERINGS = Registry("ordering", [(ordering.name, ordering) for ordering in ORDERING_LIST])

# Query templates with deterministic solvers (core.queries).
QUERIES = Registry("query", [(template.name, template) for template in TEMPLATES])

# How question sets are generated from a template over a graph (core.questions.generation).
QUESTION_GENERATORS = Registry("question generator", GENERATOR_LIST)
