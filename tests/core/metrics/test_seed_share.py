"""Seed token share on a tiny graph, against a hand sum of the seed records' tokens (direct encodes)."""

from __future__ import annotations

import math

from core.budget.policies import cut
from core.budget.sections import Sections
from core.formats import FORMATS
from core.graph.model import Edge, Graph, Node
from core.graph.units import graph_units
from core.metrics.seed_share import seed_records, seed_token_share
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

O200K = TOKENIZERS.get("o200k_base")
# a -> b -> c -> d: jsonl writes the four node lines, then the three edge lines
CHAIN = Graph.build([Node(name, "t", {"label": f"service {name}"}) for name in "abcd"],
                    [Edge("a", "r", "b"), Edge("b", "r", "c"), Edge("c", "r", "d")])
UNITS = graph_units(CHAIN)


def accounted(format_name: str):
    return prefix_tokens(FORMATS.get(format_name).render(CHAIN, UNITS), O200K, source=(CHAIN, UNITS))


def added_tokens(rendering, index: int) -> int:
    """What record `index` adds to the document of the records before it, by two direct encodes."""
    return len(O200K.encode(rendering.prefix_text(index + 1))) - len(O200K.encode(rendering.prefix_text(index)))


def test_a_line_formats_seed_share_is_the_seed_lines_tokens_over_the_cuts():
    accounting = accounted("jsonl")
    whole = cut(accounting, FORMATS.get("jsonl"), "record", 10_000, count_grammar=False)
    lines = accounting.rendering.text.split("\n")
    seed_line = next(line for line in lines if '"b"' in line and '"t"' in line)  # node b's own line
    assert seed_records(accounting.rendering, ("b",)).tolist() == [1]  # edges mentioning b are not b's own
    # Lines are separated by line feeds, where o200k must start a new token: the line's tokens are its own.
    by_hand = len(O200K.encode("\n" + seed_line))
    assert added_tokens(accounting.rendering, 1) == by_hand
    assert seed_token_share(whole, accounting, ("b",)) == by_hand / len(O200K.encode(whole.text))
    two = by_hand + added_tokens(accounting.rendering, 3)
    assert seed_token_share(whole, accounting, ("b", "d")) == two / whole.tokens


def test_a_seed_record_cut_away_counts_nothing_and_an_empty_cut_has_no_share():
    accounting = accounted("jsonl")
    first = cut(accounting, FORMATS.get("jsonl"), "record", int(accounting.counts[1]), count_grammar=False)
    assert first.records_kept == 1
    assert seed_token_share(first, accounting, ("b",)) == 0.0
    assert seed_token_share(first, accounting, ("a",)) == added_tokens(accounting.rendering, 0) / first.tokens
    assert math.isnan(seed_token_share(cut(accounting, FORMATS.get("jsonl"), "record", 1), accounting, ("a",)))
    assert math.isnan(seed_token_share(first, accounting, ()))


def test_a_page_that_holds_the_seed_and_its_edges_counts_whole():
    accounting = accounted("semantic_text")
    pages = [record.unit_keys for record in accounting.rendering.records]
    [page] = [index for index, keys in enumerate(pages) if "n:b" in keys]
    assert len(pages[page]) > 1  # b's page carries its edges too: all of it is b's
    whole = cut(accounting, FORMATS.get("semantic_text"), "record", 10_000, count_grammar=False)
    assert seed_token_share(whole, accounting, ("b",)) == \
        added_tokens(accounting.rendering, page) / len(O200K.encode(whole.text))


def test_a_selecting_cut_is_counted_in_its_own_rendering():
    accounting = accounted("jsonl")
    two_nodes = O200K.count(FORMATS.get("jsonl").render(CHAIN, UNITS[:2]).text) - \
        O200K.count(FORMATS.get("jsonl").render(CHAIN, []).text)
    sections = cut(accounting, FORMATS.get("jsonl"), "sections", 10_000, count_grammar=False,
                   sections=Sections(node_tokens=two_nodes, edge_tokens=5_000))
    own = sections.rendering
    assert sections.selection and [record.unit_keys for record in own.records][:2] == [("n:a",), ("n:b",)]
    assert seed_token_share(sections, accounting, ("b",)) == added_tokens(own, 1) / len(O200K.encode(sections.text))
    assert seed_token_share(sections, accounting, ("d",)) == 0.0  # d's node record did not fit its section
