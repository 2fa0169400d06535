"""The sections policy: node and edge sections each within their share of the budget, always a valid document."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.budget.policies import cut
from core.budget.sections import DEFAULT_SECTIONS, Sections
from core.errors import ParameterError
from core.formats import FORMATS
from core.graph.hops import hop_units
from core.io.generate import service_graph
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, order_units
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens
from tests.strategies import graphs

O200K = TOKENIZERS.get("o200k_base")
SERVICES = service_graph(40, 40, 3)
SEEDS = ("db-identity",)


def accounted(name: str, graph=SERVICES, ordering: str = "hop_tiers", seeds=SEEDS):
    units = hop_units(graph, seeds)
    ordered = order_units(graph, units, ORDERINGS.get(ordering), "nodes_then_edges", OrderingInputs(seeds=seeds))
    return prefix_tokens(FORMATS.get(name).render(graph, ordered), O200K, source=(graph, units))


def test_the_defaults_are_lightrags_six_and_eight_thousand_of_thirty_thousand():
    assert DEFAULT_SECTIONS.node_share == 6000 / 30000 and DEFAULT_SECTIONS.edge_share == 8000 / 30000
    assert DEFAULT_SECTIONS.limits(30_000, 29_000) == (6000, 8000)
    assert Sections(node_tokens=300, edge_tokens=100).limits(10_000, 200) == (150, 50)  # shrunk in proportion


@pytest.mark.parametrize("name", ["jsonl", "csv", "pretty_json", "typed_edges"])
def test_each_section_stays_within_its_share_and_the_cut_parses(name):
    format_ = FORMATS.get(name)
    accounting = accounted(name)
    result = cut(accounting, format_, "sections", 1500)
    choice = result.sections
    assert choice.node_limit == 300 and choice.edge_limit == 400
    assert 0 < choice.node_tokens <= 300 and 0 < choice.edge_tokens <= 400
    assert choice.nodes_kept < choice.nodes_total and choice.edges_kept < choice.edges_total
    assert result.budgeted_tokens <= 1500 and result.tokens == O200K.count(result.text)
    decoded = format_.decode(result.document)
    assert len(decoded.nodes) >= choice.nodes_kept and len(decoded.edges) == choice.edges_kept
    # the sections are the prefix of each section in the ordering's order
    written = [key for record in accounting.rendering.records for key in record.unit_keys]
    nodes = [key for key in written if key.startswith("n:")]
    edges = [key for key in written if key.startswith("e:")]
    assert set(result.kept_keys) == set(nodes[:choice.nodes_kept]) | set(edges[:choice.edges_kept])
    # section tokens are exact: the empty document, then the nodes, then the edges
    assert choice.empty_tokens + choice.node_tokens + choice.edge_tokens == O200K.count(result.document)
    assert result.first_dropped is None and result.first_dropped_keys == (nodes[choice.nodes_kept],
                                                                          edges[choice.edges_kept])


def test_the_marker_names_both_sections_and_is_counted():
    format_ = FORMATS.get("jsonl")
    result = cut(accounted("jsonl"), format_, "sections", 2000, marker=True)
    choice = result.sections
    assert result.marker == (f"[{choice.nodes_kept} of {choice.nodes_total} nodes and {choice.edges_kept} of "
                             f"{choice.edges_total} edges shown]")
    assert result.tokens == O200K.count(result.document + "\n" + result.marker) and result.budgeted_tokens <= 2000


def test_without_its_graph_the_sections_policy_says_what_it_needs():
    units = hop_units(SERVICES, SEEDS)
    bare = prefix_tokens(FORMATS.get("jsonl").render(SERVICES, units), O200K)
    with pytest.raises(ParameterError, match="needs the graph"):
        cut(bare, FORMATS.get("jsonl"), "sections", 1000)
    with pytest.raises(ParameterError, match="add up"):
        Sections(node_share=0.7, edge_share=0.6)


@pytest.mark.parametrize("name", FORMATS.names())
@settings(max_examples=15)
@given(graph=graphs(max_nodes=5, max_edges=6), data=st.data())
def test_every_sections_cut_parses_keeps_its_shares_and_stays_within_budget(name, graph, data):
    format_ = FORMATS.get(name)
    seeds = (graph.nodes[0].id,)
    accounting = accounted(name, graph, "personalized_pagerank", seeds)
    budget = data.draw(st.integers(0, accounting.total + O200K.count(format_.grammar) + 20))
    shares = data.draw(st.sampled_from([DEFAULT_SECTIONS, Sections(0.5, 0.5), Sections(node_tokens=9, edge_tokens=30)]))
    result = cut(accounting, format_, "sections", budget, marker=data.draw(st.booleans()), sections=shares)
    assert result.tokens == O200K.count(result.text)
    if result.empty:
        return
    assert result.budgeted_tokens <= budget
    choice = result.sections
    assert choice.node_tokens <= choice.node_limit and choice.edge_tokens <= choice.edge_limit
    decoded = format_.decode(result.document)  # closing included: it parses
    if format_.lossless:
        kept_edges = sum(1 for key in result.kept_keys if key.startswith("e:"))
        assert len(decoded.edges) == kept_edges


@pytest.mark.parametrize("name", ["jsonl", "pretty_json", "toon"])
def test_counts_kept_from_earlier_budgets_give_the_same_cut_and_spare_most_counts(name, monkeypatch):
    from core.budget import policies
    from core.budget.sections import choose_sections

    format_ = FORMATS.get(name)
    accounting = accounted(name)
    graph, units = accounting.source
    by_key = {unit.key: unit for unit in units}
    ordered = list({key: by_key[key] for record in accounting.rendering.records for key in record.unit_keys
                    if key in by_key}.values())
    counted = []
    original = O200K.count
    monkeypatch.setattr(type(O200K), "count", lambda self, text: counted.append(1) or original(text))
    for marker in (False, True):
        for budget in (900, 901, 902, 1400, 1401, 5000):
            counted.clear()
            kept = cut(accounting, format_, "sections", budget, marker=marker)  # counts kept per rendering
            spent = len(counted)
            fresh = choose_sections(graph, format_, ordered, O200K, budget,
                                    budget - policies.grammar_tokens(format_, O200K))
            if not marker:
                assert kept.sections == fresh, budget  # the same choice as counting everything again
                assert kept.tokens == original(kept.text), budget  # the cut's tokens are its text's exact count
            if budget in (901, 902, 1401):  # a step of one token: at most a few new documents counted
                assert spent <= 4, (budget, spent)


@given(st.lists(st.integers(0, 40), max_size=300), st.integers(0, 6_000), st.data())
def test_the_section_search_finds_the_largest_count_that_fits_with_or_without_known_values(steps, limit, data):
    from itertools import accumulate

    from core.budget.sections import _largest

    values = [0, *accumulate(steps)]  # tokens of the first k units: non-decreasing, tokens(0) = 0
    expected = max(k for k, value in enumerate(values) if value <= limit)
    known = {k: values[k] for k in data.draw(st.sets(st.integers(0, len(steps)), max_size=8))}
    counted = []
    assert _largest(len(steps), lambda k: counted.append(k) or values[k], limit, known) == expected
    assert not set(counted) & set(known)  # what is known is not counted again
    assert len(counted) <= 2 * max(len(steps), 1).bit_length() + 2  # never much worse than halving


def test_the_section_search_counts_a_handful_of_documents_on_even_records():
    from core.budget.sections import _largest

    counted = []
    tokens = [0] + [20 * k + k % 7 for k in range(1, 100_001)]  # about 20 tokens a unit, a little uneven
    found = _largest(100_000, lambda k: counted.append(k) or tokens[k], 1_000_003, {})
    assert found == max(k for k, value in enumerate(tokens) if value <= 1_000_003)
    assert len(counted) <= 6, counted  # halving takes 17
