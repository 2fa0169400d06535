"""The one place where formats, orderings, queries, tokenizers, model families and graph generators are looked up by name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Generic, TypeVar

from core.errors import UnknownNameError
from core.formats import (
    arrows,
    ckg_lines,
    compact_json,
    csv_records,
    edge_tuples,
    graphml,
    graphrag_tables,
    incident_text,
    jsonl,
    local_ids,
    markdown_tables,
    pretty_json,
    semantic_text,
    structured_json,
    toon,
    turtle,
    typed_edges,
    typed_edges_dict,
    untyped_pairs,
    yaml_format,
)
from core.formats.base import Format
from core.graph.model import Graph
from core.queries import TEMPLATES
from core.questions.generation import GENERATOR_LIST
from core.retrieval.ordering import ENDS, ORDERING_LIST, Ordering, with_ends
from core.tokens.models import MODEL_LIST
from core.tokens.protocol import Tokenizer
from core.tokens.tokenizers import TOKENIZER_LIST
from core.tokens.tokenizers.gguf_file import gguf_path, gguf_tokenizer, is_gguf_name

T = TypeVar("T")


class Registry(Generic[T]):
    """Named entries, in registration order; duplicate names are refused, unknown names listed."""

    def __init__(self, kind: str, entries: Iterable[tuple[str, T]] = (), *,
                 deferred: Callable[[], Iterable[tuple[str, T]]] | None = None) -> None:
        """`deferred` gives entries read on first use, for modules that cannot be imported here without a cycle."""
        self.kind = kind
        self._known: dict[str, T] = {}
        self._deferred = None
        for name, entry in entries:
            self.register(name, entry)
        self._deferred = deferred

    @property
    def _entries(self) -> dict[str, T]:
        if self._deferred is not None:
            deferred, self._deferred = self._deferred, None
            for name, entry in deferred():
                self.register(name, entry)
        return self._known

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


def _formats(*modules: ModuleType) -> Iterator[tuple[str, Format]]:
    for module in modules:
        yield module.FORMAT.name, module.FORMAT


FORMATS: Registry[Format] = Registry("format", _formats(
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


# Tokenizers of the models people deploy (core.tokens.tokenizers.families); each loads its vocabulary file
# from an installed package on first use, so registering one costs nothing.
class TokenizerRegistry(Registry[Tokenizer]):
    """The registered tokenizers, and `gguf:PATH`: the tokenizer a GGUF model file carries, read on first use."""

    def get(self, name: str) -> Tokenizer:
        if is_gguf_name(name):
            return gguf_tokenizer(gguf_path(name))
        try:
            return super().get(name)
        except UnknownNameError as error:
            raise UnknownNameError(error.what, error.where, f"{error.fix}, or gguf:PATH for a GGUF model file") \
                from None

    def __contains__(self, name: object) -> bool:
        return is_gguf_name(name) or super().__contains__(name)


TOKENIZERS = TokenizerRegistry("tokenizer", [(tokenizer.name, tokenizer) for tokenizer in TOKENIZER_LIST])

# Model families and the tokenizer that counts for each (core.tokens.models); a stand-in is marked approximate.
MODELS = Registry("model", [(model.name, model) for model in MODEL_LIST])
for _model in MODEL_LIST:
    TOKENIZERS.get(_model.tokenizer)  # every family names a registered tokenizer


class OrderingRegistry(Registry[Ordering]):
    """Orderings, plus the `<ranked ordering>+ends` variants, built on first use and not listed in names()."""

    def get(self, name: str) -> Ordering:
        if name.endswith(ENDS) and name not in self._entries and name[:-len(ENDS)] in self._entries:
            return self._entries.setdefault(name, with_ends(super().get(name[:-len(ENDS)])))
        return super().get(name)

    def names(self) -> list[str]:
        return [name for name in self._entries if not name.endswith(ENDS)]

    def ends_names(self) -> list[str]:
        """The `+ends` variant of every ranked ordering."""
        return [name + ENDS for name in self.names() if self._entries[name].ranked]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self.names() or name in self.ends_names())

    def __iter__(self):
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())


# Orderings are applied identically to every format (core.retrieval.ordering).
ORDERINGS = OrderingRegistry("ordering", [(ordering.name, ordering) for ordering in ORDERING_LIST])

# Query templates with deterministic solvers (core.queries).
QUERIES = Registry("query", [(template.name, template) for template in TEMPLATES])

# How question sets are generated from a template over a graph (core.questions.generation).
QUESTION_GENERATORS = Registry("question generator", GENERATOR_LIST)



def _graph_generators() -> Iterable[tuple[str, Callable[..., Graph]]]:
    from core.io.generate import GRAPH_GENERATOR_LIST

    return GRAPH_GENERATOR_LIST


# Seeded graph generators (core.io.generate), with parameters read from their signatures.
GENERATORS: Registry[Callable[..., Graph]] = Registry("graph generator", deferred=_graph_generators)
