"""The graphs the independent-parser tests read: every sample of sample_graphs/ and the reference graph."""

from __future__ import annotations

from functools import cache

from core.graph.model import Graph
from core.io.samples import samples


@cache
def sample_graphs() -> dict[str, Graph]:
    return {sample.name: sample.load() for sample in samples()}


SAMPLE_NAMES = [sample.name for sample in samples()]
