"""The Registry class: named entries that refuse duplicates and list the known names when asked for an unknown one.

Each registry lives in the package whose things it registers: `core.formats.FORMATS`,
`core.tokens.TOKENIZERS` and `MODELS`, `core.retrieval.ORDERINGS`, `core.queries.QUERIES`,
`core.questions.QUESTION_GENERATORS`, `core.io.GENERATORS` and `core.budget.POLICIES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

from core.errors import UnknownNameError

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
