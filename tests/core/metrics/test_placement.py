"""Dangling edges, evidence positions and marker tokens on hand-made cuts."""

from __future__ import annotations

import math
from itertools import accumulate

from core.budget.policies import cut
from core.budget.sections import Sections
from core.formats import FORMATS
from core.graph.model import Edge, Graph, Node
from core.graph.units import edge_key, graph_units
from core.metrics.placement import cut_offset, edge_key_endpoints, evidence_strip, placement
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

O200K = TOKENIZERS.get("o200k_base")
JSONL = FORMATS.get("jsonl")
# a -> b -> c -> d; jsonl writes one line per unit: the four nodes, then the three edges
CHAIN = Graph.build([Node(name, "t") for name in "abcd"],
                    [Edge("a", "r", "b"), Edge("b", "r", "c"), Edge("c", "r", "d")])
UNITS = graph_units(CHAIN)
ACCOUNTING = prefix_tokens(JSONL.render(CHAIN, UNITS), O200K, source=(CHAIN, UNITS))


def test_edge_keys_split_back_into_their_endpoints_even_with_escaped_bars():
    assert edge_key_endpoints(edge_key(Edge("x|y", "r", "z\\"))) == ("x|y", "z\\")
    assert edge_key_endpoints("e:a|r|b|2") == ("a", "b")


def test_an_edge_section_that_outlives_its_node_section_leaves_dangling_edges():
    two_nodes = O200K.count(JSONL.render(CHAIN, UNITS[:2]).text) - O200K.count(JSONL.render(CHAIN, []).text)
    result = cut(ACCOUNTING, JSONL, "sections", 10_000, sections=Sections(node_tokens=two_nodes, edge_tokens=5_000))
    assert set(result.kept_keys) == {"n:a", "n:b", "e:a|r|b", "e:b|r|c", "e:c|r|d"}
    # b -> c lacks c, c -> d lacks both: two dangling; a -> b has both endpoints
    assert placement(result, ACCOUNTING, frozenset()).dangling_edges == 2
    whole = cut(ACCOUNTING, JSONL, "record", 10_000)
    assert placement(whole, ACCOUNTING, frozenset()).dangling_edges == 0


def test_evidence_positions_are_record_offsets_as_shares_of_the_context():
    evidence = frozenset({"n:a", "n:c", "e:b|r|c", "n:d"})
    result = cut(ACCOUNTING, JSONL, "record", 10_000)
    records = ACCOUNTING.rendering.records
    text = ACCOUNTING.rendering.text
    token_ends = list(accumulate(len(piece) for piece in O200K.token_bytes(O200K.encode(text))))
    # a record starts after the tokens that end before its first byte (a token straddling the
    # boundary, like "}\n", belongs to the record it finishes in)
    starts = {records[index].unit_keys[0]: sum(1 for end in token_ends
                                               if end <= len("".join(r.text for r in records[:index])))
              for index in range(len(records))}
    figures = placement(result, ACCOUNTING, evidence)
    expected = sorted(starts[key] / result.tokens for key in evidence)
    assert figures.evidence_positions == tuple(expected)
    assert starts["n:a"] == 0 and figures.evidence_position_first == 0.0
    assert figures.evidence_position_median == (expected[1] + expected[2]) / 2
    assert figures.evidence_position_last == starts["e:b|r|c"] / result.tokens
    assert figures.evidence_spread == expected[-1] - expected[0]
    assert figures.evidence_spread_tokens == starts["e:b|r|c"] - starts["n:a"]


def test_cut_evidence_has_no_position_and_the_strip_marks_it_red_beyond_the_cut_line():
    evidence = frozenset({"n:a", "e:c|r|d"})
    one_record = int(ACCOUNTING.counts[1])
    result = cut(ACCOUNTING, JSONL, "record", one_record, count_grammar=False)
    assert result.records_kept == 1
    figures = placement(result, ACCOUNTING, evidence)
    assert figures.evidence_positions == (0.0,) and figures.evidence_spread == 0 and figures.evidence_spread_tokens == 0
    strip = evidence_strip(result, ACCOUNTING, evidence)
    assert strip.total_tokens == O200K.count(ACCOUNTING.rendering.text)
    assert [(tick.key, tick.kept) for tick in strip.ticks] == [("n:a", True), ("e:c|r|d", False)]
    assert strip.cut_at == len(O200K.encode(ACCOUNTING.rendering.records[0].text)) - 1  # "}\n" straddles
    assert strip.ticks[1].offset > strip.cut_at
    nothing = placement(result, ACCOUNTING, frozenset({"e:c|r|d"}))
    assert math.isnan(nothing.evidence_position_first) and math.isnan(nothing.evidence_spread)


def test_the_marker_lines_tokens_are_what_it_adds_to_the_context():
    marked = cut(ACCOUNTING, JSONL, "record", int(ACCOUNTING.counts[3]) + 12, count_grammar=False, marker=True)
    # The graph has four nodes and three edges; the document keeps the first two node lines.
    assert marked.marker == "[2 of 7 records shown: nodes 2 of 4, edges 0 of 3]"
    figures = placement(marked, ACCOUNTING, frozenset())
    assert figures.marker_tokens == O200K.count(marked.text) - O200K.count(marked.document) > 0
    assert placement(cut(ACCOUNTING, JSONL, "record", 10_000), ACCOUNTING, frozenset()).marker_tokens == 0


def test_the_evidence_median_is_numpys_median_for_odd_and_even_counts():
    import numpy as np
    from hypothesis import given
    from hypothesis import strategies as st

    from core.metrics.placement import _median

    @given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
    def same(shares):
        ordered = sorted(shares)
        assert _median(ordered) == float(np.median(ordered))

    same()


def test_kept_evidence_offsets_are_the_record_starts_of_the_kept_evidence_in_order():
    # evidence a (record 0), d (record 3) and the edge c->d; nodes before edges in jsonl
    evidence = frozenset({"n:a", "n:d", edge_key(Edge("c", "r", "d")), "n:not-rendered"})
    starts = [ACCOUNTING.tokens_before_byte(int(ACCOUNTING.record_ends[index])) for index in range(7)]
    for budget in (0, 10, 25, 40, 10_000):
        result = cut(ACCOUNTING, JSONL, "record", budget, count_grammar=False)
        figures = placement(result, ACCOUNTING, evidence)
        expected = sorted(starts[index] for index in (0, 3, 6) if index < result.records_kept)
        assert figures.evidence_positions == tuple(offset / max(result.tokens, 1) for offset in expected)


def test_the_cut_line_falls_after_the_kept_records_or_the_intact_raw_prefix():
    full = ACCOUNTING.rendering
    for kept in range(len(full.records) + 1):
        budget = int(ACCOUNTING.counts[kept]) if kept else 1
        result = cut(ACCOUNTING, JSONL, "record", budget, count_grammar=False)
        if result.empty:
            assert cut_offset(full, result) == 0
            continue
        # the document is the kept records plus the closing the format needs to parse
        assert result.records_kept == kept
        assert cut_offset(full, result) == len(full.prefix_text(kept)) - len(full.closings[kept])
    raw = cut(ACCOUNTING, JSONL, "raw", 9, count_grammar=False)
    assert full.text.startswith(raw.document) and cut_offset(full, raw) == len(raw.document)
    whole = cut(ACCOUNTING, JSONL, "sections", 10_000)
    assert cut_offset(full, whole) == len(full.text)


def test_a_raw_cut_through_a_character_stops_before_it():
    graph = Graph.build([Node("🦜" * 20, "t")], [])
    units = graph_units(graph)
    accounting = prefix_tokens(JSONL.render(graph, units), O200K, source=(graph, units))
    text, split = accounting.rendering.text, 0
    for budget in range(1, int(accounting.counts[-1])):
        result = cut(accounting, JSONL, "raw", budget, count_grammar=False)
        offset = cut_offset(accounting.rendering, result)
        document = result.document
        assert document[:offset] == text[:offset]  # the cut line never passes text the cut changed
        assert offset == len(document) or document[offset] != text[offset]  # and stops as late as it can
        split += document.endswith("\ufffd")
    assert split  # some budget does end inside a character (o200k_base splits 🦜 into three tokens)


def test_dangling_edges_read_from_the_graphs_arrays_equal_those_read_key_by_key():
    from core.io.samples import load_sample, sample_names
    from core.metrics.coverage import seed_region
    from core.retrieval import ORDERINGS
    from core.retrieval.ordering import OrderingInputs, order_units
    dangling = []
    for name in sample_names():
        graph = load_sample(name)
        seeds = (graph.nodes[0].id,)
        region = seed_region(graph, seeds)
        for format_name in ("jsonl", "local_ids", "semantic_text"):
            format_ = FORMATS.get(format_name)
            units = order_units(graph, region.units, ORDERINGS.get("shuffled"), "interleaved",
                                OrderingInputs(seeds, frozenset(), 5))
            rendering = format_.render(graph, units)
            from_graph = prefix_tokens(rendering, O200K, source=(graph, units))  # the graph's endpoint arrays
            from_keys = prefix_tokens(rendering, O200K)  # each edge key split into its endpoints
            for budget in (0, 90, 200, 400, 800, 1600, 100_000):
                results = [cut(accounting, format_, "record", budget) for accounting in (from_graph, from_keys)]
                dangling.append(placement(results[0], from_graph, frozenset()).dangling_edges)
                assert dangling[-1] == placement(results[1], from_keys, frozenset()).dangling_edges, (name, budget)
    assert max(dangling) > 0  # the cuts do leave edges dangling


def test_the_cut_line_falls_where_the_kept_text_stops_matching_the_complete_text_in_every_format():
    from core.io.generate import service_graph

    graph = service_graph(8, 14, 5)
    units = graph_units(graph)
    for name in FORMATS.names():
        format_ = FORMATS.get(name)
        accounting = prefix_tokens(format_.render(graph, units), O200K, source=(graph, units))
        full = accounting.rendering
        text, whole = full.text, int(accounting.counts[-1])
        for budget in sorted({0, 30, whole // 3, whole // 2 + 7, whole, whole + 500}):
            for policy in ("raw", "record", "sections"):
                result = cut(accounting, format_, policy, budget, count_grammar=False)
                offset, where = cut_offset(full, result), (name, policy, budget)
                assert cut_offset(full, result, text) == offset, where  # given the complete text: the same
                if result.empty:
                    assert offset == 0, where
                elif policy == "sections":
                    assert offset == len(text), where
                elif policy == "record" and not full.declared_counts:
                    assert offset == len(full.prefix_text(result.records_kept)) - len(
                        full.closings[result.records_kept]), where
                elif policy == "record":  # a cut writes its own counts ([3] for [8]): its text is no prefix of
                    assert offset >= 0, where  # the complete text, so only the rule above holds for it
                else:  # the longest shared start, character by character
                    shared = next((index for index, (ours, theirs) in enumerate(zip(result.document, text))
                                   if ours != theirs), min(len(result.document), len(text)))
                    assert offset == shared, where


def test_the_character_ends_kept_for_the_cut_line_go_with_their_rendering():
    import gc
    import weakref

    from core.graph.derived import memo_of

    rendering = JSONL.render(CHAIN, UNITS)
    accounting = prefix_tokens(rendering, O200K, source=(CHAIN, UNITS))
    assert cut_offset(rendering, cut(accounting, JSONL, "record", 10_000)) > 0
    assert "character ends" in memo_of(rendering)  # kept on the rendering itself
    watched = weakref.ref(rendering)
    del rendering, accounting
    gc.collect()
    assert watched() is None  # and dropped with it: nothing module-wide holds it


def test_a_raw_cut_draws_its_strip_line_where_its_text_ends_inside_a_record():
    budget = int(ACCOUNTING.counts[1]) + 3  # the first record and three tokens of the second
    result = cut(ACCOUNTING, JSONL, "raw", budget, count_grammar=False)
    assert result.records_kept == 1 and result.kept_tokens == budget
    strip = evidence_strip(result, ACCOUNTING, frozenset({"n:b"}))
    assert strip.cut_at == budget  # three tokens into the second record, not at its start
    assert O200K.decode(O200K.encode(ACCOUNTING.rendering.text)[:strip.cut_at]) == result.document
    assert [(tick.key, tick.kept) for tick in strip.ticks] == [("n:b", False)]  # a partial record is not kept
    assert strip.ticks[0].offset < strip.cut_at
    everything = cut(ACCOUNTING, JSONL, "raw", ACCOUNTING.total, count_grammar=False)
    assert evidence_strip(everything, ACCOUNTING, frozenset()).cut_at is None
