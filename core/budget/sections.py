"""The `sections` budget policy: the node section and the edge section each get their own share of B.

GraphRAG context builders truncate per section: LightRAG's query defaults give entities 6,000 and
relations 8,000 tokens of a 30,000-token context (`DEFAULT_MAX_ENTITY_TOKENS`,
`DEFAULT_MAX_RELATION_TOKENS`, `DEFAULT_MAX_TOTAL_TOKENS` in `lightrag/constants.py`); the rest of
LightRAG's context goes to text chunks and the system prompt, which this lab does not send. The
default `Sections()` reproduces those proportions of the budget: 20% for nodes, 26.7% for edges.
A share can instead be a token count (`Sections(node_tokens=6000, edge_tokens=8000)`).

Each section is filled in the ordering's order by the record rule (whole units while the next
still fits), and the kept units are rendered again by the format, so the cut is a complete
document: closing included, it always parses. Section tokens are exact and add up:

    node section = tokens(document of the kept nodes) - tokens(empty document)
    edge section = tokens(document of the kept nodes and edges) - tokens(document of the kept nodes)

When the empty document, the grammar and both shares do not fit in B together, both shares shrink
in proportion. Edges whose endpoint nodes did not fit are kept (as LightRAG keeps relations whose
entities were truncated): `dangling_edges` counts them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass

from core.errors import ParameterError
from core.formats.base import Format
from core.graph.model import Graph
from core.graph.units import Unit
from core.number_style import share, whole
from core.tokens.protocol import Tokenizer

LIGHTRAG_TOTAL_TOKENS = 30_000
LIGHTRAG_ENTITY_TOKENS = 6_000
LIGHTRAG_RELATION_TOKENS = 8_000


@dataclass(frozen=True)
class Sections:
    """Node and edge shares of the budget (fractions of B), or fixed token counts when given."""

    node_share: float = LIGHTRAG_ENTITY_TOKENS / LIGHTRAG_TOTAL_TOKENS
    edge_share: float = LIGHTRAG_RELATION_TOKENS / LIGHTRAG_TOTAL_TOKENS
    node_tokens: int | None = None
    edge_tokens: int | None = None

    def __post_init__(self) -> None:
        for name in ("node_share", "edge_share"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1 \
                    or not math.isfinite(value):
                raise ParameterError(f"{name} is {value!r}", "sections policy", "give a share between 0 and 1")
        if self.node_share + self.edge_share > 1:
            raise ParameterError(f"the node and edge shares add up to {self.node_share + self.edge_share:.3f}",
                                 "sections policy", "give shares that add up to 1 or less")
        for name in ("node_tokens", "edge_tokens"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ParameterError(f"{name} is {value!r}", "sections policy", "give a whole number of tokens")

    def limits(self, budget: int, available: int) -> tuple[int, int]:
        """Token limits of the node and edge sections at budget B, with `available` tokens left for both."""
        nodes = self.node_tokens if self.node_tokens is not None else math.floor(self.node_share * budget)
        edges = self.edge_tokens if self.edge_tokens is not None else math.floor(self.edge_share * budget)
        if available <= 0:
            return 0, 0
        if nodes + edges > available:  # both shrink in proportion
            nodes, edges = (available * nodes) // (nodes + edges), (available * edges) // (nodes + edges)
        return nodes, edges

    def describe(self) -> str:
        if self.node_tokens is not None or self.edge_tokens is not None:
            return f"nodes {whole(self.node_tokens)} tokens, edges {whole(self.edge_tokens)} tokens"
        return f"nodes {share(self.node_share)}, edges {share(self.edge_share)} of the budget"


DEFAULT_SECTIONS = Sections()


@dataclass(frozen=True)
class SectionChoice:
    """What the sections policy keeps: units in the ordering's order and each section's exact tokens."""

    units: tuple[Unit, ...]
    nodes_kept: int
    nodes_total: int
    edges_kept: int
    edges_total: int
    node_limit: int
    edge_limit: int
    node_tokens: int
    edge_tokens: int
    empty_tokens: int


def _largest(count: int, tokens: Callable[[int], int], limit: int, known: Mapping[int, int]) -> int:
    """The largest k in 0..count with tokens(k) <= limit, searching as if tokens were non-decreasing;
    tokens(0) <= limit is assumed, and `known` holds values of tokens already counted (k -> tokens).

    Each new value renders and counts a document of k units (a second on a large graph). The search starts
    from the closest known values on either side, so a nearby budget counts little or nothing new. Section
    tokens grow about linearly with k, so a probe goes where the line through the two nearest points
    reaches the limit (a secant step), or, above the highest point, a little past where the line from the
    lowest point does; a step that fails to halve the interval is followed by a halving step. Where tokens
    does not decrease this is the k a plain halving search finds, in a handful of counts instead of ~17.
    """
    low, low_tokens, high, high_tokens = 0, 0, count + 1, None  # tokens(low) <= limit < tokens(high)
    for k, found in known.items():
        if 0 <= k <= count:
            if found <= limit and k > low:
                low, low_tokens = k, found
            elif found > limit and k < high:
                high, high_tokens = k, found
    halve = False
    while high - low > 1:
        if halve and high_tokens is not None:
            probe = (low + high) // 2
        elif high_tokens is None:  # nothing known above: extrapolate, and aim a little high to bracket
            estimate = int(limit * low / low_tokens) if low and low_tokens > 0 else max(2 * low, 64)
            probe = estimate + estimate // 32 + 1
        else:
            slope = (high_tokens - low_tokens) / (high - low)
            probe = low + int((limit - low_tokens) / slope) if slope > 0 else (low + high) // 2
        probe = min(max(probe, low + 1), high - 1, count)
        before = high - low
        found = tokens(probe)
        if found <= limit:
            low, low_tokens = probe, found
        else:
            high, high_tokens = probe, found
        halve = not halve and high - low > before // 2  # a halving step after a try that did not halve
    return low


def choose_sections(graph: Graph, format_: Format, ordered: Sequence[Unit], tokenizer: Tokenizer, budget: int,
                    allowed: int, sections: Sections = DEFAULT_SECTIONS, suffix: Callable[[int, int], str] | None = None,
                    counts: MutableMapping[tuple[int, int], int] | None = None) -> SectionChoice | None:
    """Fill the node section, then the edge section, each within its limit; None if no document fits.

    `allowed` is what the document (and suffix) may take of the budget; `suffix(nodes_kept, edges_kept)`
    is text appended after the document (the marker line), counted in the total. `counts`, when given,
    holds the exact tokens of the document of the first k nodes and m edges, (k, m) -> tokens, from
    earlier calls with the same graph, format, ordered units and tokenizer: the binary searches of nearby
    budgets visit mostly the same (k, m), each a render and count of the whole document (seconds on a
    large graph).
    """
    nodes: list[Unit] = [unit for unit in ordered if unit.is_node]
    edges: list[Unit] = [unit for unit in ordered if not unit.is_node]
    position = {unit.key: index for index, unit in enumerate(ordered)}
    counts = {} if counts is None else counts

    def tokens(k: int, m: int) -> int:
        found = counts.get((k, m))
        if found is None:
            chosen = sorted(nodes[:k] + edges[:m], key=lambda unit: position[unit.key])
            found = counts[k, m] = tokenizer.count(format_.render(graph, chosen).text)
        return found

    def extra(k: int, m: int) -> int:
        if suffix is None:
            return 0
        return tokenizer.count(format_.render(graph, _chosen(nodes, edges, k, m, position)).text + "\n"
                               + suffix(k, m)) - tokens(k, m)

    empty = tokens(0, 0)
    if empty + extra(0, 0) > allowed:
        return None
    node_limit, edge_limit = sections.limits(budget, allowed - empty)
    kept_nodes = _largest(len(nodes), lambda k: tokens(k, 0) - empty, node_limit,
                          {k: found - empty for (k, m), found in counts.items() if m == 0})
    node_section = tokens(kept_nodes, 0)
    kept_edges = _largest(len(edges), lambda m: tokens(kept_nodes, m) - node_section, edge_limit,
                          {m: found - node_section for (k, m), found in counts.items() if k == kept_nodes})
    # the marker line comes out of the same budget: give back edges, then nodes, until it fits
    while suffix is not None and tokens(kept_nodes, kept_edges) + extra(kept_nodes, kept_edges) > allowed:
        if kept_edges:
            kept_edges -= 1
        elif kept_nodes:
            kept_nodes -= 1
        else:
            return None
    return SectionChoice(_chosen(nodes, edges, kept_nodes, kept_edges, position), kept_nodes, len(nodes), kept_edges,
                         len(edges), node_limit, edge_limit, tokens(kept_nodes, 0) - empty,
                         tokens(kept_nodes, kept_edges) - tokens(kept_nodes, 0), empty)


def _chosen(nodes: list[Unit], edges: list[Unit], k: int, m: int, position: Mapping[str, int]) -> tuple[Unit, ...]:
    return tuple(sorted(nodes[:k] + edges[:m], key=lambda unit: position[unit.key]))


def section_marker(choice: SectionChoice) -> str:
    return section_marker_line(choice.nodes_kept, choice.nodes_total, choice.edges_kept, choice.edges_total)


def section_marker_line(nodes_kept: int, nodes_total: int, edges_kept: int, edges_total: int) -> str:
    return f"[{nodes_kept} of {nodes_total} nodes and {edges_kept} of {edges_total} edges shown]"
