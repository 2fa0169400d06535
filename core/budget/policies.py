"""Budget policies: what of a rendering survives B tokens, as raw token slicing, whole records or sections.

- `raw`: encode the complete text, keep its first B tokens (fewer when the decoded text would
  re-encode to more than B), decode them with replacement. The cut can end inside a record (or a
  character) and the document may not parse.
- `record`: append whole records while the next one still fits, closing included, so every cut
  is a valid document (for monolithic JSON: the largest valid object that fits).
- `sections`: the node section and the edge section each get a share of B (LightRAG's proportions
  by default), each filled in order by the record rule, the kept units rendered again as one
  complete document (`core.budget.sections`). It needs the graph and the rendered units, and it re-renders
  per cut, so sweeps run it only when asked for (`DEFAULT_POLICIES` are the two prefix policies).

Each policy is a `BudgetPolicy` object in `POLICY_REGISTRY` (exported as `core.budget.POLICIES`, which
also registers the selecting policies of `core.budget.selection`); `cut(...)` looks the name up there.

The budget covers the document: preamble + records + closing, plus the optional truncation marker
line (`[37 of 131 records shown]`, written on its own line after the document, so decoders read the
document alone). The record policy's line also counts the node and edge units its records carry when
the rendering has both (`[34 of 113 records shown: nodes 20 of 43, edges 14 of 70]`), so what was
omitted is never silent; its tokens are counted in the cut's like any text of it. With `count_grammar`
(the default) the format's grammar, the instructions a model needs to read the format, is counted
toward the budget too: the seed documents require grammar tokens in the measured prompt. Grammar and
document are separate blocks of a prompt, so the budgeted total is `tokens + grammar_tokens`, each the
exact count of its own text; the fixed frame around them is reported apart. A budget that cannot hold the empty document (or the grammar) gives
an empty cut that says why; it is not an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from core.budget.sections import (
    DEFAULT_SECTIONS,
    SectionChoice,
    Sections,
    choose_sections,
    section_marker,
    section_marker_line,
)
from core.errors import ParameterError
from core.formats.base import Format, Rendering
from core.graph.derived import derived, memo_of
from core.graph.model import Graph
from core.graph.units import Unit
from core.registry import Registry
from core.retrieval.ordering import Ordering, OrderingInputs
from core.tokens.prefix_tokens import PrefixTokens
from core.tokens.protocol import Tokenizer

DEFAULT_POLICIES: tuple[str, ...] = ("raw", "record")  # the prefix policies: what a sweep cuts unless told otherwise


@dataclass(frozen=True)
class Cut:
    """What survives a budget: the document (and marker line), exact tokens and the units it keeps."""

    format_name: str
    policy: str
    budget: int
    document: str  # what the format's decoder reads; "" for an empty cut
    marker: str  # the truncation marker line, "" when there is none
    tokens: int  # exact tokens of `text`
    grammar_tokens: int
    count_grammar: bool
    records_kept: int  # whole records inside the document
    records_total: int
    next_tokens: int | None  # budgeted tokens the record policy would need to keep one more record
    explanation: str = ""
    rendering: Rendering | None = field(default=None, repr=False, compare=False)
    # sections policy only: the rendering is of the kept units alone, and the sections' exact tokens
    sections: SectionChoice | None = field(default=None, repr=False, compare=False)
    dropped_keys: tuple[str, ...] = ()  # sections policy: the first unit not kept in each section
    kept_tokens: int | None = None  # raw policy: the complete text's tokens it keeps (where its text is cut)
    # The document renders the units the policy chose (sections, density, knapsack, connected), not a prefix of
    # the rendering: its `rendering` is of those units alone, and `dropped_keys` names the units not kept first.
    selection: bool = False

    @property
    def kept_keys(self) -> tuple[str, ...]:
        """Unit keys of the whole records the document holds."""
        records = self.rendering.records[:self.records_kept] if self.rendering else ()
        return tuple(key for record in records for key in record.unit_keys)

    @property
    def first_dropped_keys(self) -> tuple[str, ...]:
        """Unit keys of the first record not kept (the boundary); () when nothing was dropped."""
        if self.selection:
            return self.dropped_keys
        if self.rendering is None or self.records_kept >= self.records_total:
            return ()
        return self.rendering.records[self.records_kept].unit_keys

    @property
    def text(self) -> str:
        """The context as sent: the document, then the marker line if any."""
        return self.document + ("\n" + self.marker if self.marker else "")

    @property
    def budgeted_tokens(self) -> int:
        """What counts against the budget: the text, plus the grammar when it is counted."""
        return self.tokens + (self.grammar_tokens if self.count_grammar else 0)

    @property
    def empty(self) -> bool:
        return not self.document

    @property
    def first_dropped(self) -> int | None:
        """Index (0-based) of the first record not kept, or None when every record is kept (or for a selecting
        policy, which keeps no prefix)."""
        if self.selection:
            return None
        return self.records_kept if self.records_kept < self.records_total else None


def unit_survival(accounting: PrefixTokens, result: Cut) -> dict[str, str]:
    """Each unit key the accounted rendering writes: "kept" if the cut keeps its record, else "cut"."""
    kept = set(result.kept_keys)
    return {key: "kept" if key in kept else "cut" for key in accounting.record_of_key}


def grammar_tokens(format_: Format, tokenizer: Tokenizer) -> int:
    """The tokens of the format's grammar: counted once per tokenizer, kept on the format (which every cut asks)."""
    return derived(format_, ("grammar tokens", tokenizer), lambda: tokenizer.count(format_.grammar))


def record_marker(kept: int, total: int, sections: tuple[int, int, int, int] | None = None) -> str:
    """`[34 of 113 records shown]`, with per-section counts when given (nodes kept, nodes in all, edges kept, edges
    in all): `[34 of 113 records shown: nodes 20 of 43, edges 14 of 70]`."""
    if sections is None:
        return f"[{kept} of {total} records shown]"
    nodes_kept, nodes_total, edges_kept, edges_total = sections
    return (f"[{kept} of {total} records shown: nodes {nodes_kept} of {nodes_total}, "
            f"edges {edges_kept} of {edges_total}]")


def record_marker_for(accounting: PrefixTokens, kept: int) -> str:
    """The record policy's marker line for a prefix of `kept` records: per-section counts of the node and edge
    units its records carry when the rendering carries both kinds (a line per edge alone needs none)."""
    nodes, edges = accounting.kept_node_and_edge_counts
    if not int(nodes[-1]) or not int(edges[-1]):
        return record_marker(kept, accounting.records)
    return record_marker(kept, accounting.records, (int(nodes[kept]), int(nodes[-1]), int(edges[kept]),
                                                    int(edges[-1])))


def token_marker(kept: int, total: int) -> str:
    return f"[{kept} of {total} tokens shown]"


@dataclass(frozen=True)
class CutRequest:
    """Everything a policy cuts from: the accounted rendering, the budget left for the document, and (for the
    policies that re-render what they choose) the graph and the units the rendering was made from."""

    accounting: PrefixTokens
    format_: Format
    budget: int
    allowed: int  # tokens the document may take: the budget less the grammar when it is counted
    grammar: int
    count_grammar: bool
    marker: bool
    graph: Graph | None = None
    units: Sequence[Unit] | None = None
    sections: Sections = DEFAULT_SECTIONS
    ordering: Ordering | None = None  # the rendering's ordering and inputs, when known: their relevance scores
    inputs: OrderingInputs | None = None


class PolicyCut(Protocol):
    def __call__(self, request: CutRequest) -> Cut: ...


@dataclass(frozen=True)
class BudgetPolicy:
    """A named way to fit a rendering into a budget; registered in `core.budget.POLICIES`."""

    name: str
    description: str
    apply: PolicyCut = field(repr=False)
    prefix: bool  # keeps a prefix of the rendering's records (its cut text may end inside one: raw)
    always_parses: bool  # every non-empty cut is a valid document
    preference: int  # on equal figures the advisor prefers the lower: a policy whose cuts always parse
    needs_source: bool = False  # re-renders what it keeps, so it needs the graph and the units

    def cut(self, request: CutRequest) -> Cut:
        return self.apply(request)


def check_policy(policy: str) -> str:
    """The policy's name when it is registered; a ParameterError listing the registered ones otherwise."""
    if policy not in POLICY_REGISTRY:
        raise ParameterError(f"unknown budget policy {policy!r}", "policy",
                             f"use one of: {', '.join(POLICY_REGISTRY)}")
    return policy


def policy_named(name: str) -> BudgetPolicy:
    return POLICY_REGISTRY.get(check_policy(name))


def cut(accounting: PrefixTokens, format_: Format, policy: str, budget: int, *, count_grammar: bool = True,
        marker: bool = False, graph: Graph | None = None, units: Sequence[Unit] | None = None,
        sections: Sections = DEFAULT_SECTIONS) -> Cut:
    """Apply one policy at one budget (in tokens) to an accounted rendering in `format_`.

    The policies that re-render what they keep (sections and the selecting ones) also need the graph and the
    units the rendering was made from (any order): given here, or recorded in the accounting
    (`prefix_tokens(..., source=(graph, units))`).
    """
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 0:
        raise ParameterError(f"budget {budget!r} is not a whole number of tokens", "budget", "give 0 or more tokens")
    chosen = policy_named(policy)
    grammar = grammar_tokens(format_, accounting.tokenizer)
    allowed = int(budget) - (grammar if count_grammar else 0)
    ordering = inputs = None
    if chosen.needs_source:
        if (graph is None or units is None) and accounting.source is not None:
            graph, units = accounting.source[:2]
        if graph is None or units is None:
            raise ParameterError(f"the {policy} policy needs the graph and its units", "cut",
                                 "pass graph= and units= (the units the rendering was made from)")
        if accounting.source is not None and len(accounting.source) == 4 and accounting.source[0] is graph:
            ordering, inputs = accounting.source[2:]
    return chosen.cut(CutRequest(accounting, format_, int(budget), allowed, grammar, count_grammar, marker, graph,
                                 units, sections, ordering, inputs))


def empty_cut(accounting: PrefixTokens, format_: Format, policy: str, budget: int, grammar: int,
              count_grammar: bool, needed: int, what: str, *, selection: bool = False) -> Cut:
    """A cut that keeps nothing because even `what` (`needed` tokens) does not fit; it says so."""
    grammar_part = f" plus the format's grammar ({grammar:,} tokens)" if count_grammar else ""
    explanation = (f"nothing fits: a budget of {budget:,} tokens cannot hold {what} of {format_.name} "
                   f"({needed:,} tokens){grammar_part}")
    return Cut(format_.name, policy, budget, "", "", 0, grammar, count_grammar, 0, accounting.records, None,
               explanation, accounting.rendering, selection=selection)


def _record_cut(accounting: PrefixTokens, format_: Format, budget: int, allowed: int, grammar: int,
                count_grammar: bool, marker: bool) -> Cut:
    counts = accounting.counts
    too_big = np.flatnonzero(counts > allowed)
    kept = accounting.records if too_big.size == 0 else int(too_big[0]) - 1
    if kept < 0:
        return empty_cut(accounting, format_, "record", budget, grammar, count_grammar, int(counts[0]),
                      "an empty document (preamble and closing)")
    total = accounting.records
    line = ""
    if marker and kept < total:
        # The marker's own tokens may push the last records out; step back until it fits.
        while kept >= 0 and accounting.count(kept, "\n" + record_marker_for(accounting, kept)) > allowed:
            kept -= 1
        if kept < 0:
            return empty_cut(accounting, format_, "record", budget, grammar, count_grammar,
                          accounting.count(0, "\n" + record_marker_for(accounting, 0)),
                          "an empty document with its truncation marker")
        line = record_marker_for(accounting, kept)
    tokens = accounting.count(kept, "\n" + line if line else "")
    extra = grammar if count_grammar else 0
    next_tokens = int(counts[kept + 1]) + extra if kept < total else None
    explanation = "" if kept == total else (f"kept {kept:,} of {total:,} records; the next needs a budget of "
                                            f"{next_tokens:,} tokens")
    return Cut(format_.name, "record", budget, accounting.prefix_text(kept), line, tokens, grammar, count_grammar,
               kept, total, next_tokens, explanation, accounting.rendering)


SECTION_COUNTS_KEPT = 1 << 14  # (k, m) counts per rendering; a few dozen per budget, so hundreds of budgets

def _section_counts(accounting: PrefixTokens, format_: Format, graph: Graph, units: Sequence[Unit]
                    ) -> dict[tuple[int, int], int]:
    """The section documents' counts kept for this rendering, graph and units (a dict: sessions share it from
    their threads, and a dict's get and set are atomic)."""
    memo = memo_of(accounting)  # (format name, graph, units, (k, m) -> tokens): counted for earlier budgets
    found = memo.get("section counts")
    if found is None or found[0] != format_.name or found[1] is not graph or found[2] is not units:
        found = memo["section counts"] = (format_.name, graph, units, {})
    if len(found[3]) > SECTION_COUNTS_KEPT:
        found[3].clear()
    return found[3]


def _sections_cut(accounting: PrefixTokens, format_: Format, budget: int, allowed: int, grammar: int,
                  count_grammar: bool, marker: bool, graph: Graph, units: Sequence[Unit], sections: Sections) -> Cut:
    by_key = {unit.key: unit for unit in units}
    ordered = [by_key[key] for record in accounting.rendering.records for key in record.unit_keys if key in by_key]
    ordered = list({unit.key: unit for unit in ordered}.values())  # a key once, where it is first written
    total_nodes = sum(1 for unit in ordered if unit.is_node)
    suffix = None
    if marker:
        def suffix(k: int, m: int) -> str:
            return section_marker_line(k, total_nodes, m, len(ordered) - total_nodes)
    choice = choose_sections(graph, format_, ordered, accounting.tokenizer, budget, allowed, sections, suffix,
                             _section_counts(accounting, format_, graph, units))
    if choice is None:
        empty = accounting.tokenizer.count(format_.render(graph, []).text)
        return empty_cut(accounting, format_, "sections", budget, grammar, count_grammar, empty,
                         "an empty document (preamble and closing)", selection=True)
    rendering = format_.render(graph, choice.units)
    complete = choice.nodes_kept == choice.nodes_total and choice.edges_kept == choice.edges_total
    line = section_marker(choice) if marker and not complete else ""
    text = rendering.text
    # Without a marker line the text is the document choose_sections counted: its sections add up to it.
    tokens = (choice.empty_tokens + choice.node_tokens + choice.edge_tokens if not line
              else accounting.tokenizer.count(text + "\n" + line))
    nodes = [unit for unit in ordered if unit.is_node]
    edges = [unit for unit in ordered if not unit.is_node]
    dropped = tuple(section[kept].key for section, kept in ((nodes, choice.nodes_kept), (edges, choice.edges_kept))
                    if kept < len(section))
    explanation = "" if complete else (
        f"kept {choice.nodes_kept:,} of {choice.nodes_total:,} nodes ({choice.node_tokens:,} of {choice.node_limit:,} "
        f"node-section tokens) and {choice.edges_kept:,} of {choice.edges_total:,} edges ({choice.edge_tokens:,} of "
        f"{choice.edge_limit:,} edge-section tokens; {sections.describe()})")
    return Cut(format_.name, "sections", budget, text, line, tokens, grammar, count_grammar, len(rendering.records),
               accounting.records, None, explanation, rendering, choice, dropped, selection=True)


def _raw_cut(accounting: PrefixTokens, format_: Format, budget: int, allowed: int, grammar: int,
             count_grammar: bool, marker: bool) -> Cut:
    preamble = accounting.tokenizer.count(accounting.rendering.preamble)
    if allowed <= 0 or allowed < preamble:
        return empty_cut(accounting, format_, "raw", budget, grammar, count_grammar, max(preamble, 1),
                      "the preamble" if preamble else "one token")
    total = accounting.total
    kept_tokens = min(allowed, total)
    while True:
        line = token_marker(kept_tokens, total) if marker and kept_tokens < total else ""
        text, tokens, intact = accounting.raw_prefix(kept_tokens, "\n" + line if line else "")
        if tokens <= allowed or kept_tokens == 0:
            break
        # Decoded text can re-encode to more tokens than were kept, and a marker adds some:
        # keep fewer tokens until everything fits.
        kept_tokens = max(kept_tokens - (tokens - allowed), 0)
    if tokens > allowed or not text or intact < int(accounting.record_ends[0]):
        return empty_cut(accounting, format_, "raw", budget, grammar, count_grammar,
                      accounting.tokenizer.count(accounting.rendering.preamble + "\n" + token_marker(0, total))
                      if marker else preamble,
                      "the preamble with the truncation marker" if marker else "the preamble")
    kept = accounting.records_within(intact)
    # Beside "Tokens used 1,406 / 1,406": the text's share and the grammar's, which the budget counts too.
    counted_grammar = grammar if count_grammar else 0
    explanation = "" if kept_tokens == total else (
        f"kept the first {kept_tokens:,} of the text's {total:,} tokens"
        + (f" + {counted_grammar:,} of the grammar" if counted_grammar else ""))
    next_tokens = None
    if kept < accounting.records:
        next_tokens = int(accounting.counts[kept + 1]) + (grammar if count_grammar else 0)
    return Cut(format_.name, "raw", budget, text, line, tokens, grammar, count_grammar, kept, accounting.records,
               next_tokens, explanation, accounting.rendering, kept_tokens=kept_tokens)


def _record(request: CutRequest) -> Cut:
    return _record_cut(request.accounting, request.format_, request.budget, request.allowed, request.grammar,
                       request.count_grammar, request.marker)


def _raw(request: CutRequest) -> Cut:
    return _raw_cut(request.accounting, request.format_, request.budget, request.allowed, request.grammar,
                    request.count_grammar, request.marker)


def _sections(request: CutRequest) -> Cut:
    assert request.graph is not None and request.units is not None  # cut() checks needs_source
    return _sections_cut(request.accounting, request.format_, request.budget, request.allowed, request.grammar,
                         request.count_grammar, request.marker, request.graph, request.units, request.sections)


RAW = BudgetPolicy("raw", "the first B tokens of the complete text; the cut may end inside a record and not parse",
                   _raw, prefix=True, always_parses=False, preference=5)
RECORD = BudgetPolicy("record", "whole records in order while the next still fits; always a valid document",
                      _record, prefix=True, always_parses=True, preference=0)
SECTIONS = BudgetPolicy("sections", "the node and the edge section each get a share of B, each filled in order by "
                        "the record rule, the kept units rendered again", _sections, prefix=False,
                        always_parses=True, preference=1, needs_source=True)

# Every budget policy by name; the package (core.budget) registers the selecting ones, one line each.
POLICY_REGISTRY: Registry[BudgetPolicy] = Registry("budget policy", [(policy.name, policy) for policy in
                                                                    (RAW, RECORD, SECTIONS)])
