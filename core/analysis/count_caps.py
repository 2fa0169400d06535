"""Count caps in tokens: what "the top 30 triplets" or a Cypher `LIMIT 100` costs in each format and tokenizer.

Retrievers cap by count (records, triples, nodes), prompts are billed by tokens. For a cap of N units of one kind
this gives the exact tokens of the rendering that holds the first N of them:

- `edges` (triples) and `nodes`: the ordering's units of that kind alone, in its order, rendered in the format
  (the N-edge context a retriever that returns edges hands on; no node records beside them);
- `records`: the first N records of the format's own rendering of every unit (nodes then edges).

Counts come from the lab's prefix accounting (`core.tokens.prefix_tokens`): the kind's rendering is counted once
and each cap's count is read off its prefix counts. That is exact wherever the first k records hold exactly the
first N units. A format whose records cover several units (semantic_text's page: a node and its edges;
adjacency_list's line: a node's out-edges) or that groups units (yaml and turtle write edges under their source,
relation_tables under their relation) writes the first N edges in records that also hold, or come after, later
ones: there no prefix is the N-unit document, so the first N units are rendered on their own and encoded
(`method` "rendered" against "prefix"; `_exact_prefix` decides, per rendering and cap).

Each cap is counted in the seed-anchored order (`hop_tiers`, the lab's default for seeds) and in every other
ordering of the spec that does not read the answer (oracles are left out), whose min / median / max is the spread:
how much the same cap costs depending on which units a retriever ranks first. Tokens are the rendering's text
(preamble, records, closing); a format's grammar is not in them.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from core.errors import ParameterError
from core.formats.base import Format
from core.graph.units import Unit
from core.memory.rendering_cache import RenderingCache
from core.pipeline import accounted_rendering, rendering_units
from core.retrieval import ORDERINGS
from core.retrieval.ordering import Ordering, order_units
from core.specs import RenderingSpec, SweepSpec
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import PrefixTokens, prefix_tokens
from core.tokens.protocol import tokenizable

CAP_KINDS = ("edges", "nodes", "records")
ANCHOR_ORDERING = "hop_tiers"  # the seed-anchored order the lab renders seeds in
LAYOUT = "nodes_then_edges"  # a kind's units alone keep the ordering's order; records come nodes first
MAX_CAPS = 20


@dataclass(frozen=True)
class CapTokens:
    """One cap in one rendering: the exact tokens of the document holding the first `held` units of the kind."""

    tokens: int
    held: int  # units of the kind (records for `records`): the cap, or all there are when there are fewer
    units: int  # nodes and edges those records carry (equal to `held` except for records covering several)
    method: str  # "prefix": read off the prefix counts; "rendered": the first units rendered and encoded alone


@dataclass(frozen=True)
class CapCost:
    """A cap of `cap` units of `kind` in one format and tokenizer: its tokens in the anchor order and per ordering."""

    format_name: str
    tokenizer_name: str
    kind: str
    cap: int
    anchor_ordering: str
    anchor: CapTokens
    orderings: tuple[str, ...]  # the spread's orderings (the anchor among them)
    spread: tuple[int, ...]  # tokens per ordering, in `orderings` order

    @property
    def minimum(self) -> int:
        return min(self.spread)

    @property
    def median(self) -> float:
        return statistics.median(self.spread)

    @property
    def maximum(self) -> int:
        return max(self.spread)

    def as_dict(self) -> dict:
        return {"format": self.format_name, "tokenizer": self.tokenizer_name, "kind": self.kind, "cap": self.cap,
                "held": self.anchor.held, "units": self.anchor.units, "tokens": self.anchor.tokens,
                "method": self.anchor.method, "min": self.minimum, "median": self.median, "max": self.maximum,
                "by_ordering": dict(zip(self.orderings, self.spread))}


def check_caps(caps: Sequence[int], kind: str) -> tuple[tuple[int, ...], str]:
    """Caps as distinct whole numbers of 1 or more, in the order given; the kind one of CAP_KINDS."""
    if kind not in CAP_KINDS:
        raise ParameterError(f"unknown cap kind {kind!r}", "cap_kind", f"use one of: {', '.join(CAP_KINDS)}")
    checked = []
    for cap in caps:
        if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)) or cap < 1:
            raise ParameterError(f"cap {cap!r} is not a whole number of 1 or more", "caps",
                                 "give caps as counts, e.g. 30,100")
        checked.append(int(cap))
    if not checked or len(checked) > MAX_CAPS:
        raise ParameterError(f"{len(checked)} caps given", "caps", f"give 1 to {MAX_CAPS} caps, e.g. 30,100")
    return tuple(dict.fromkeys(checked)), kind


def spread_orderings(spec: SweepSpec) -> tuple[Ordering, ...]:
    """The anchor first, then the spec's other orderings that do not read the answer."""
    others = [ordering for ordering in spec.orderings if not ordering.oracle and ordering.name != ANCHOR_ORDERING]
    return (ORDERINGS.get(ANCHOR_ORDERING), *others)


def count_caps(spec: SweepSpec, caps: Sequence[int], *, kind: str = "edges",
               tokenizer_names: Sequence[str] | None = None, cache: RenderingCache | None = None
               ) -> tuple[CapCost, ...]:
    """Per tokenizer, format and cap (in that nesting): the cap's exact tokens in the anchor order and its spread.

    The spec gives the graph, seeds, formats, orderings (oracles left out), shuffle seed and radius; its first
    query the question an ordering may read. `tokenizer_names` default to the spec's tokenizer; `cache` keeps
    each kind's accounted rendering (the workbench's).
    """
    caps, kind = check_caps(caps, kind)
    orderings = spread_orderings(spec)
    query = spec.queries[0][1] if spec.queries else None
    found = []
    for tokenizer_name in tokenizer_names or (spec.tokenizer.name,):
        tokenized = replace(spec, tokenizer=TOKENIZERS.get(tokenizer_name))
        # ordering -> format -> one CapTokens per cap; each ordering's units are ordered once for every format
        per_ordering = [_ordering_caps(tokenized, ordering, query, caps, kind, cache) for ordering in orderings]
        for index, format_ in enumerate(tokenized.formats):
            for position, cap in enumerate(caps):
                counted = [each[index][position] for each in per_ordering]
                found.append(CapCost(format_.name, tokenizer_name, kind, cap, ANCHOR_ORDERING, counted[0],
                                     tuple(ordering.name for ordering in orderings),
                                     tuple(item.tokens for item in counted)))
    return tuple(found)


def _ordering_caps(spec: SweepSpec, ordering: Ordering, query, caps: tuple[int, ...], kind: str,
                   cache: RenderingCache | None) -> list[list[CapTokens]]:
    specs = [spec.rendering(format_, ordering, LAYOUT, query) for format_ in spec.formats]
    first = specs[0]
    ordered = order_units(first.graph, rendering_units(first), ordering, LAYOUT, first.inputs)
    return [_rendering_caps(rendering, ordered, caps, kind, cache) for rendering in specs]


def _rendering_caps(spec: RenderingSpec, ordered: Sequence[Unit], caps: tuple[int, ...], kind: str,
                    cache: RenderingCache | None) -> list[CapTokens]:
    if kind == "records":
        accounting = accounted_rendering(spec, cache=cache, ordered=ordered)
        nodes, edges = accounting.kept_node_and_edge_counts
        held = [min(cap, accounting.records) for cap in caps]
        return [CapTokens(int(accounting.counts[count]), count, int(nodes[count] + edges[count]), "prefix")
                for count in held]
    chosen = tuple(unit for unit in ordered if unit.is_node == (kind == "nodes"))
    accounting = kind_accounting(spec, chosen, kind, cache)
    return [cap_tokens(accounting, spec.format, spec, chosen[:cap]) for cap in caps]


def kind_accounting(spec: RenderingSpec, chosen: Sequence[Unit], kind: str,
                    cache: RenderingCache | None = None) -> PrefixTokens:
    """The rendering of `chosen` (one kind's units, in order) with its prefix counts, kept under its own key."""
    def build() -> PrefixTokens:
        return prefix_tokens(spec.format.render(spec.graph, chosen), spec.tokenizer)

    return cache.get_or_build(("count caps", kind, *spec.key), build) if cache is not None else build()


def cap_tokens(accounting: PrefixTokens, format_: Format, spec: RenderingSpec, first: Sequence[Unit]) -> CapTokens:
    """Tokens of the document holding exactly the units `first` (the start of what `accounting` renders): a prefix
    count where some prefix of records holds exactly them, else `first` rendered alone and encoded."""
    records = _exact_prefix(accounting, first)
    if records is not None:
        return CapTokens(int(accounting.counts[records]), len(first), len(first), "prefix")
    text = format_.render(spec.graph, first).text
    return CapTokens(spec.tokenizer.count(tokenizable(text)), len(first), len(first), "rendered")


def _exact_prefix(accounting: PrefixTokens, first: Sequence[Unit]) -> int | None:
    """The k whose first k records carry exactly the units `first`, if there is one."""
    nodes, edges = accounting.kept_node_and_edge_counts
    carried = nodes + edges
    records = int(np.searchsorted(carried, len(first), side="left"))
    if records >= len(carried) or carried[records] != len(first):
        return None
    kept = {key for record in accounting.rendering.records[:records] for key in record.unit_keys}
    return records if kept == {unit.key for unit in first} else None


def parse_caps(text: str) -> tuple[int, ...]:
    """Caps written as a person types them ("30, 100"): counts of 1 or more, comma-separated, each once."""
    parts = [part.strip() for part in text.split(",")]
    wrong = [part for part in parts if not part.isdigit() or int(part) < 1]
    if wrong or not 1 <= len(parts) <= MAX_CAPS:
        raise ParameterError(f"{(wrong or [text])[0]!r} is not a list of counts", "caps",
                             f"give 1 to {MAX_CAPS} counts of 1 or more, comma-separated, such as 30,100")
    return tuple(dict.fromkeys(int(part) for part in parts))


def cap_columns(costs: Sequence[CapCost]) -> dict[str, list]:
    """Columns for a table of one tokenizer's costs: per format (rows) and cap, the tokens in the anchor order,
    what the rendering holds where that is not the cap, and the spread's min / median / max."""
    formats = list(dict.fromkeys(item.format_name for item in costs))
    by_cell = {(item.format_name, item.cap): item for item in costs}
    caps = list(dict.fromkeys(item.cap for item in costs))
    columns: dict[str, list] = {"format": formats}
    for cap in caps:
        cells = [by_cell[name, cap] for name in formats]
        kind = cells[0].kind
        columns[f"{cap:,} {kind}: tokens"] = [item.anchor.tokens for item in cells]
        if any(item.anchor.held < cap for item in cells):
            columns[f"{cap:,} {kind}: held"] = [item.anchor.held for item in cells]
        if kind == "records":
            columns[f"{cap:,} records: units"] = [item.anchor.units for item in cells]
        columns[f"{cap:,}: min tokens"] = [item.minimum for item in cells]
        columns[f"{cap:,}: median tokens"] = [item.median for item in cells]
        columns[f"{cap:,}: max tokens"] = [item.maximum for item in cells]
    columns["counted"] = [", ".join(dict.fromkeys(by_cell[name, cap].anchor.method for cap in caps))
                          for name in formats]
    return columns
