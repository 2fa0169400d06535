"""Retrieval: the seeds, their hop levels, the relevance a retriever computes and the order units are written in.

`ORDERINGS` is the registry of orderings; each is applied identically to every format.
"""

from __future__ import annotations

from core.registry import Registry
from core.retrieval.ordering import ENDS, ORDERING_LIST, Ordering, with_ends


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

__all__ = ["ORDERINGS", "Ordering", "OrderingRegistry"]
