"""Prefix stability under edits: how much of each rendering a provider's prompt cache still holds after one edit.

A prompt cache (OpenAI, Anthropic, vLLM, llama.cpp) reuses the longest prefix of a request it has seen
before. After an edit to the graph, the context is rendered again; what the cache keeps of it is the
longest token prefix of the original rendering whose text is a prefix of the edited rendering's text.
Per (format, ordering, layout) and per edit (`core.graph.edits`: a node added, an edge removed, a property
changed, each drawn from the original graph with its recorded seed), the share is

    kept tokens / tokens of the original rendering,

the kept tokens read off the original's own encoding (the lab's tokenizer) at the first byte where the two
texts differ. Equal texts keep 100%. An edit touches the context when it adds, removes or changes a unit the
original or the edited rendering holds; with a radius (U_radius(S)) an edit far from the seeds touches
nothing, yet under a graph-wide ordering (centrality, PageRank) it can still reorder what is rendered.

Every ordering keeps its inputs across the edit (the seeds, the query's evidence on the original graph, the
question, the shuffle seed): the edit changes the graph and nothing else.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from core.formats.base import forget_records
from core.graph.edits import GraphEdit, draw_edits, touched
from core.graph.units import Unit
from core.memory.rendering_cache import RenderingCache
from core.metrics.coverage import seed_region
from core.pipeline import accounted_rendering, rendering_units
from core.retrieval.ordering import layouts_for, order_units
from core.specs import RenderingSpec, SweepSpec
from core.tokens.protocol import Tokenizer

DEFAULT_EDITS = 10

Progress = Callable[[int, int, str], None]  # (edits done, edits in all, what)


@dataclass(frozen=True)
class RenderingStability:
    """One rendering under each edit: its tokens, and per edit the tokens that stay a cached prefix."""

    format_name: str
    ordering_name: str
    layout: str
    tokens: int
    kept: tuple[int, ...]  # per edit, in the edits' order
    changed: tuple[bool, ...]  # per edit: the edited rendering's text differs from the original's

    @property
    def shares(self) -> tuple[float, ...]:
        """kept / tokens per edit (an empty rendering keeps all of its nothing: 1.0)."""
        return tuple(kept / self.tokens if self.tokens else 1.0 for kept in self.kept)

    @property
    def mean_share(self) -> float:
        return statistics.fmean(self.shares)

    @property
    def min_share(self) -> float:
        return min(self.shares)

    @property
    def max_share(self) -> float:
        return max(self.shares)

    def as_dict(self) -> dict:
        return {"format": self.format_name, "ordering": self.ordering_name, "layout": self.layout,
                "tokens": self.tokens, "mean_share": round(self.mean_share, 4),
                "min_share": round(self.min_share, 4), "max_share": round(self.max_share, 4),
                "edits_changing_text": sum(self.changed), "kept_tokens": list(self.kept)}


@dataclass(frozen=True)
class PrefixStability:
    """Every rendering under the same N edits, with the edits and which of them touched the rendered units."""

    tokenizer_name: str
    edit_seed: int
    seeds: tuple[str, ...]
    radius: int | None
    edits: tuple[GraphEdit, ...]
    touched: tuple[bool, ...]  # per edit: it adds, removes or changes a rendered unit
    renderings: tuple[RenderingStability, ...]

    @property
    def touching(self) -> int:
        """How many edits touched the rendered context."""
        return sum(self.touched)

    def as_dict(self) -> dict:
        return {"tokenizer": self.tokenizer_name, "edit_seed": self.edit_seed, "seeds": list(self.seeds),
                "radius": self.radius, "edits_touching_the_context": self.touching,
                "edits": [edit.as_dict() | {"touched": hit} for edit, hit in zip(self.edits, self.touched)],
                "renderings": [item.as_dict() for item in self.renderings]}

    def summary(self) -> pd.DataFrame:
        """One row per rendering: tokens, mean, min and max cached share, edits that changed its text."""
        return pd.DataFrame({
            "format": [item.format_name for item in self.renderings],
            "ordering": [item.ordering_name for item in self.renderings],
            "layout": [item.layout for item in self.renderings],
            "tokens": [item.tokens for item in self.renderings],
            "mean cached share": [item.mean_share for item in self.renderings],
            "min cached share": [item.min_share for item in self.renderings],
            "max cached share": [item.max_share for item in self.renderings],
            "edits changing text": [sum(item.changed) for item in self.renderings]})

    def samples(self) -> pd.DataFrame:
        """One row per (rendering, edit, numbered from 1 as the CLI lists them): the share the cache keeps."""
        return pd.DataFrame([
            {"format": item.format_name, "ordering": item.ordering_name, "layout": item.layout,
             "edit": index + 1, "kind": self.edits[index].kind, "cached share": share}
            for item in self.renderings for index, share in enumerate(item.shares)])


def common_prefix_length(first: bytes, second: bytes) -> int:
    """Bytes the two texts share from the start."""
    size = min(len(first), len(second))
    left, right = np.frombuffer(first, np.uint8, size), np.frombuffer(second, np.uint8, size)
    differ = np.flatnonzero(left != right)
    return int(differ[0]) if differ.size else size


def cached_tokens(tokenizer: Tokenizer, tokens: np.ndarray, original_text: str, edited_text: str) -> int:
    """The length of the longest prefix of `tokens` (the encoding of `original_text`) whose bytes are a prefix of
    `edited_text`: what a prompt cache keyed on the original still serves for the edited text."""
    before = tokenizer.prepare(original_text).encode("utf-8")
    after = tokenizer.prepare(edited_text).encode("utf-8")
    ends = np.cumsum(tokenizer.token_byte_lengths()[tokens]) if len(tokens) else np.zeros(0, np.int64)
    if len(ends) and int(ends[-1]) != len(before):  # a token the length table does not know: read its bytes
        ends = np.cumsum([len(piece) for piece in tokenizer.token_bytes([int(token) for token in tokens])])
    return int(np.searchsorted(ends, common_prefix_length(before, after), side="right"))


def rendering_specs(spec: SweepSpec) -> list[RenderingSpec]:
    """Every (format, ordering, layout) rendering of the sweep spec, each format's together, with its first query's
    evidence and question."""
    query = spec.queries[0][1]
    return [spec.rendering(format_, ordering, layout, query) for format_ in spec.formats
            for ordering in spec.orderings for layout in spec.layouts if layout in layouts_for(format_)]


def prefix_stability(spec: SweepSpec, edits: int = DEFAULT_EDITS, edit_seed: int = 0, *,
                     cache: RenderingCache | None = None, progress: Progress | None = None) -> PrefixStability:
    """Each rendering of `spec` (its formats x orderings x layouts, its seeds, radius and tokenizer) before and after
    each of `edits` edits drawn from `edit_seed`: the tokens a prompt cache keeps (`cache` serves the originals)."""
    return stability_under(spec, draw_edits(spec.graph, edits, edit_seed), edit_seed, cache=cache, progress=progress)


def stability_under(spec: SweepSpec, drawn: Sequence[GraphEdit], edit_seed: int = 0, *,
                    cache: RenderingCache | None = None, progress: Progress | None = None) -> PrefixStability:
    """`prefix_stability` under edits already made (drawn, or made by hand)."""
    specs = rendering_specs(spec)
    originals = [accounted_rendering(each, cache=cache) for each in specs]
    texts = [accounting.rendering.text for accounting in originals]
    region = seed_region(spec.graph, spec.seeds, spec.direction)
    rendered = frozenset(unit.key for unit in (region.units if spec.radius is None else region.candidates(spec.radius)))
    kept: list[list[int]] = [[] for _ in specs]
    changed: list[list[bool]] = [[] for _ in specs]
    hits = []
    for number, edit in enumerate(drawn):
        if progress is not None:
            progress(number, len(drawn), edit.what)
        edited_texts, edited_keys = _edited_texts(specs, edit)
        hits.append(touched(edit, (rendered, edited_keys)))
        for index, (accounting, text, edited) in enumerate(zip(originals, texts, edited_texts)):
            same = text == edited
            kept[index].append(accounting.total if same else
                               cached_tokens(spec.tokenizer, accounting.full_tokens, text, edited))
            changed[index].append(not same)
        forget_records(edit.graph)  # one-off graphs: their records would otherwise stay in the format memos
    if progress is not None:
        progress(len(drawn), len(drawn), "done")
    return PrefixStability(
        spec.tokenizer.name, edit_seed, spec.seeds, spec.radius, tuple(drawn), tuple(hits),
        tuple(RenderingStability(each.format.name, each.ordering.name, each.layout, accounting.total,
                                 tuple(kept[index]), tuple(changed[index]))
              for index, (each, accounting) in enumerate(zip(specs, originals))))


def _edited_texts(specs: Sequence[RenderingSpec], edit: GraphEdit) -> tuple[list[str], frozenset[str]]:
    """Each rendering's text on the edited graph (each ordering and layout ordered once for every format), and the
    keys of the units rendered there."""
    first = replace(specs[0], graph=edit.graph)
    region = seed_region(edit.graph, first.inputs.seeds, first.inputs.direction)
    units = rendering_units(first, region)
    arranged: dict[tuple, tuple[Unit, ...]] = {}
    texts = []
    for each in specs:
        order_key = (each.ordering.name, each.layout, each.inputs)
        if order_key not in arranged:
            arranged[order_key] = order_units(edit.graph, units, each.ordering, each.layout, each.inputs)
        texts.append(each.format.render(edit.graph, arranged[order_key]).text)
    return texts, frozenset(unit.key for unit in units)
