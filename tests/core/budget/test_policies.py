"""Budget policies: raw token slicing versus whole records, the marker line, grammar, empty cuts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.budget import DEFAULT_POLICIES
from core.budget.policies import cut, unit_survival
from core.errors import FormatError, ParameterError
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.generate import service_graph
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

GRAPH = service_graph(40, 80, 7)
O200K = TOKENIZERS.get("o200k_base")


def accounted(name: str, graph=GRAPH, tokenizer=O200K):
    return prefix_tokens(FORMATS.get(name).render(graph, graph_units(graph)), tokenizer)


def parses(name: str, document: str) -> bool:
    try:
        FORMATS.get(name).decode(document)
        return True
    except FormatError:
        return False


@pytest.mark.parametrize("name", ["pretty_json", "compact_json"])
def test_raw_slicing_inside_a_json_document_breaks_it_while_whole_records_keep_it_valid(name):
    accounting = accounted(name)
    for budget in (600, 1000, 1500):
        assert budget < accounting.total + 200
        raw = cut(accounting, FORMATS.get(name), "raw", budget)
        record = cut(accounting, FORMATS.get(name), "record", budget)
        assert not parses(name, raw.document)
        assert parses(name, record.document) and record.records_kept > 0
        assert raw.budgeted_tokens <= budget and record.budgeted_tokens <= budget


@pytest.mark.parametrize("name", FORMATS.names())
def test_the_record_policy_parses_at_every_budget_that_holds_a_record(name):
    format_ = FORMATS.get(name)
    accounting = accounted(name)
    for budget in range(0, accounting.total + 600, 97):
        result = cut(accounting, format_, "record", budget)
        if result.records_kept:
            assert parses(name, result.document), budget
            assert format_.decode(result.document) == format_.decode(accounting.prefix_text(result.records_kept))


def test_a_budget_below_the_empty_document_gives_an_empty_cut_that_says_why():
    format_ = FORMATS.get("pretty_json")
    accounting = accounted("pretty_json")
    grammar = O200K.count(format_.grammar)
    for policy in DEFAULT_POLICIES:
        result = cut(accounting, format_, policy, grammar + 3)
        assert result.empty and result.text == "" and result.tokens == 0 and result.records_kept == 0
        assert "nothing fits" in result.explanation and "grammar" in result.explanation
        assert result.first_dropped == 0 and result.first_dropped_keys == ("n:db-identity",)


def test_the_grammar_counts_toward_the_budget_unless_switched_off():
    format_ = FORMATS.get("typed_edges")
    accounting = accounted("typed_edges")
    grammar = O200K.count(format_.grammar)
    counted = cut(accounting, format_, "record", 500)
    free = cut(accounting, format_, "record", 500, count_grammar=False)
    assert counted.grammar_tokens == free.grammar_tokens == grammar
    assert counted.budgeted_tokens == counted.tokens + grammar <= 500
    assert free.budgeted_tokens == free.tokens <= 500 and free.records_kept > counted.records_kept


@pytest.mark.parametrize("policy", DEFAULT_POLICIES)
def test_the_marker_line_is_counted_and_decoders_read_the_document_alone(policy):
    format_ = FORMATS.get("compact_json")
    accounting = accounted("compact_json")
    marked = cut(accounting, format_, policy, 900, marker=True)
    plain = cut(accounting, format_, policy, 900)
    assert marked.text == marked.document + "\n" + marked.marker
    assert marked.tokens == O200K.count(marked.text) and marked.budgeted_tokens <= 900
    assert marked.records_kept <= plain.records_kept
    if policy == "record":
        # Counted by hand from the records kept: compact_json writes one record per node, then one per edge.
        kinds = [key[0] for record in accounting.rendering.records for key in record.unit_keys]
        kept = kinds[:marked.records_kept]
        assert marked.marker == (f"[{marked.records_kept} of {accounting.records} records shown: nodes "
                                 f"{kept.count('n')} of {kinds.count('n')}, edges {kept.count('e')} of "
                                 f"{kinds.count('e')}]")
        assert parses("compact_json", marked.document)
    else:
        assert marked.marker.endswith(f"of {accounting.total} tokens shown]")
    whole = cut(accounting, format_, policy, accounting.total + 500, marker=True)
    assert whole.marker == "" and whole.records_kept == accounting.records  # nothing cut, nothing to say


def test_the_record_policy_stops_where_the_next_record_no_longer_fits():
    format_ = FORMATS.get("jsonl")
    accounting = accounted("jsonl")
    result = cut(accounting, format_, "record", 700)
    assert result.next_tokens > 700 >= result.budgeted_tokens
    assert result.first_dropped == result.records_kept
    assert result.first_dropped_keys == accounting.rendering.records[result.records_kept].unit_keys
    assert len(result.kept_keys) == result.records_kept and "the next needs a budget of" in result.explanation


def test_bad_budgets_and_policies_are_refused():
    format_ = FORMATS.get("jsonl")
    accounting = accounted("jsonl")
    for budget in (-1, 1.5, "512", True):
        with pytest.raises(ParameterError):
            cut(accounting, format_, "record", budget)
    with pytest.raises(ParameterError):
        cut(accounting, format_, "greedy", 512)


@pytest.mark.parametrize("name", FORMATS.names())
@cross_product(40)
@given(graph=graphs(max_nodes=5, max_edges=6), data=st.data())
def test_every_cut_reports_the_exact_tokens_of_its_text_and_stays_within_budget(name, graph, data):
    format_ = FORMATS.get(name)
    tokenizer = TOKENIZERS.get(data.draw(st.sampled_from(TOKENIZERS.names())))
    accounting = accounted(name, graph, tokenizer)
    budget = data.draw(st.integers(0, accounting.total + tokenizer.count(format_.grammar) + 5))
    result = cut(accounting, format_, data.draw(st.sampled_from(DEFAULT_POLICIES)), budget, marker=data.draw(st.booleans()),
                 count_grammar=data.draw(st.booleans()))
    assert result.tokens == tokenizer.count(result.text)
    assert result.empty or result.budgeted_tokens <= budget
    if result.policy == "raw":
        assert accounting.rendering.text.startswith(result.document.rstrip("\ufffd"))
        kept = accounting.rendering.preamble + "".join(r.text for r in accounting.rendering.records[:result.records_kept])
        assert result.empty or result.document.startswith(kept)
    else:
        assert result.empty or result.document == accounting.prefix_text(result.records_kept)


def test_unit_survival_marks_the_units_of_the_kept_records_kept_and_every_other_unit_cut():
    # jsonl writes one unit per line, so a record cut keeping k lines keeps exactly the first k units written
    accounting = accounted("jsonl")
    result = cut(accounting, FORMATS.get("jsonl"), "record", accounting.total // 3)
    survival = unit_survival(accounting, result)
    written = sorted(accounting.record_of_key, key=accounting.record_of_key.get)
    assert 0 < result.records_kept < len(written)
    assert [survival[key] for key in written] == ["kept"] * result.records_kept + ["cut"] * (len(written) - result.records_kept)
