"""Auditing a context built by hand: a few records of a sample graph, one written twice, one node record dropped so
its edges dangle, a node the graph does not have; every figure against a hand count and a direct tiktoken encode."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis.audit import audit_context
from core.errors import FormatError
from core.formats import FORMATS
from core.formats.base import Record
from core.graph.model import ORPHAN_TYPE, Graph, Node
from core.graph.units import edge_keys, graph_units
from core.io.samples import get_sample, load_sample
from core.questions.reading import QuestionNotRead
from core.reports.audit_report import audit_document, audit_lines, duplicates_line
from core.specs import RenderingSpec
from core.tokens import TOKENIZERS
from core.workbench import Workbench
from tests.hypothesis_profiles import cross_product
from tests.strategies import graphs

GRAPH = load_sample("online-boutique")  # 13 nodes, 18 edges
TOKENIZER = TOKENIZERS.get("o200k_base")
ENCODING = TOKENIZER.encoding  # tiktoken's own Encoding: the other way to count
BENCH = Workbench()
QUESTION = get_sample("online-boutique").default_query().question_on(GRAPH)  # impact of cartservice through calls

# The hand-made context: cartservice's three edges and their other ends; cartservice's own record is dropped,
# frontend's record is written twice and ghost is a node the graph does not have.
EDGES = ("e:cartservice|depends_on|redis-cart", "e:checkoutservice|calls|cartservice", "e:frontend|calls|cartservice")
NODES = ("n:checkoutservice", "n:frontend", "n:redis-cart")
GHOST = Node("ghost", "service")


def own_lines(format_name: str) -> dict[str, str]:
    """Each unit's record in the lab's rendering of the whole graph, as one line (jsonl writes one per line)."""
    rendering = FORMATS.get(format_name).render(GRAPH, graph_units(GRAPH))
    return {record.unit_keys[0]: record.text.strip("\n") for record in rendering.records}


def jsonl_context() -> str:
    lines = own_lines("jsonl")
    chosen = [lines["n:checkoutservice"], lines["n:frontend"], lines["n:frontend"], lines["n:redis-cart"],
              '{"k":"n","id":"ghost","t":"service"}', *(lines[key] for key in EDGES)]
    return "\n".join(chosen)


def test_a_hand_made_jsonl_context_is_audited_as_counted_by_hand():
    text = jsonl_context()
    audit = audit_context(GRAPH, text, FORMATS.get("jsonl"), TOKENIZER, source="context.jsonl")
    assert audit.tokens == len(ENCODING.encode_ordinary(text))
    assert (audit.characters, audit.bytes) == (len(text), len(text.encode()))
    assert (audit.graph_nodes, audit.graph_edges) == (13, 18)
    assert audit.nodes_covered == NODES and audit.edges_covered == EDGES
    assert audit.units_covered == 6 and audit.coverage == 6 / 31
    assert audit.nodes_not_in_graph == ("ghost",) and audit.edges_not_in_graph == ()
    assert audit.nodes_differing == () and audit.edges_differing == ()
    assert audit.dangling_edges == EDGES  # each touches cartservice, whose record is absent
    assert audit.duplicates.counted and audit.duplicates.repeated == (("n:frontend", 2, 1),)
    assert audit.duplicates.extra == 1 and audit.question is None


def test_the_report_writes_the_figures_in_the_number_style():
    text = jsonl_context()
    lines = audit_lines(audit_context(GRAPH, text, FORMATS.get("jsonl"), TOKENIZER, source="context.jsonl"))
    tokens = len(ENCODING.encode_ordinary(text))
    assert lines[0] == f"context.jsonl: jsonl, {tokens:,} tokens (o200k_base), {len(text):,} characters, " \
                       f"{len(text.encode()):,} bytes"
    assert lines[1] == "holds 6 of the graph's 31 units (19%): 3 of 13 nodes, 3 of 18 edges"
    assert lines[2] == "not in the graph: 1 node record: ghost; 0 edge records"
    assert lines[3] == f"dangling: 3 edges whose endpoint has no node record: {', '.join(EDGES)}"
    assert lines[4] == ("duplicates: 1 unit written more often than the graph has it, 1 extra record: n:frontend "
                        "(2 times, the graph has 1)")


def test_another_tokenizer_counts_the_same_text_its_own_way():
    text = jsonl_context()
    other = TOKENIZERS.get("cl100k_base")
    audit = audit_context(GRAPH, text, FORMATS.get("jsonl"), other)
    assert audit.tokenizer_name == "cl100k_base" and audit.tokens == len(other.encoding.encode_ordinary(text))


def gives_units_back(format_) -> bool:
    """Whether the format's decoder gives each unit back, whole or as its `image` says (with its node id)."""
    return format_.lossless or format_.image is not None


def hand_made(format_name: str) -> tuple[str, Record]:
    """The same context in any format: the chosen units of the graph plus ghost rendered, frontend's record written
    twice; and that record (a grouped format's record carries edges too; one that writes no node records, none)."""
    format_ = FORMATS.get(format_name)
    with_ghost = Graph.build([*GRAPH.nodes, GHOST], GRAPH.edges)
    units = {unit.key: unit for unit in graph_units(with_ghost)}
    rendering = format_.render(with_ghost, [units[key] for key in (*NODES, "n:ghost", *EDGES)])
    records = list(rendering.records)
    twice = next(index for index, record in enumerate(records) if "n:frontend" in record.unit_keys)
    records.insert(twice, records[twice])
    return rendering.preamble + "".join(record.text for record in records) + rendering.closing, records[twice]


@pytest.mark.parametrize("format_name", FORMATS.names())
def test_every_format_either_counts_the_record_written_twice_or_says_it_cannot(format_name):
    format_ = FORMATS.get(format_name)
    text, written_twice = hand_made(format_name)
    try:
        audit = audit_context(GRAPH, text, format_, TOKENIZER)
    except FormatError:  # a format that refuses a repeated record (an id bound twice, a count [N] that is off)
        return
    assert audit.tokens == len(ENCODING.encode_ordinary(text))
    duplicates = audit.duplicates
    if not duplicates.counted:
        assert duplicates.reason and duplicates_line(audit).startswith("duplicates: not counted (")
    elif written_twice.text.strip():  # a format that writes no node record wrote nothing twice
        assert {(written, allowed) for _, written, allowed in duplicates.repeated} == {(2, 1)}
    if gives_units_back(format_):  # adjacency_list reads an edge's source as a node; others write labels for ids
        assert audit.nodes_covered == NODES and audit.nodes_not_in_graph == ("ghost",)
        assert set(audit.edges_covered) == set(EDGES) and len(audit.dangling_edges) >= 3
        assert not duplicates.counted or {key for key, _, _ in duplicates.repeated} >= {"n:frontend"}


@pytest.mark.parametrize("format_name", ["pretty_json", "jsonl", "csv", "typed_edges", "markdown_tables", "xml"])
def test_the_line_and_block_formats_count_the_record_written_twice(format_name):
    audit = audit_context(GRAPH, hand_made(format_name)[0], FORMATS.get(format_name), TOKENIZER)
    assert audit.duplicates.counted and audit.duplicates.repeated == (("n:frontend", 2, 1),)
    assert audit.dangling_edges == EDGES


@pytest.mark.parametrize("format_name", FORMATS.names())
def test_the_labs_own_complete_text_holds_every_unit_once(format_name):
    format_ = FORMATS.get(format_name)
    audit = audit_context(GRAPH, format_.render(GRAPH, graph_units(GRAPH)).text, format_, TOKENIZER)
    assert audit.duplicates.repeated == ()  # counted or not, nothing is said twice
    assert audit.units_covered <= 31
    if gives_units_back(format_):
        assert audit.units_covered == 31 and audit.foreign_records == 0 and audit.dangling_edges == ()


def test_a_single_line_document_says_duplicates_are_not_counted_rather_than_none():
    text, _ = hand_made("compact_json")
    audit = audit_context(GRAPH, text, FORMATS.get("compact_json"), TOKENIZER)
    assert not audit.duplicates.counted and "one line" in audit.duplicates.reason
    assert "none" not in duplicates_line(audit)


def test_a_record_written_otherwise_than_in_the_graph_is_named():
    lines = own_lines("jsonl")
    text = "\n".join([lines["n:checkoutservice"], '{"k":"n","id":"frontend","t":"client"}',
                      '{"k":"e","s":"frontend","r":"calls","t":"checkoutservice","p":{"weight":2}}'])
    audit = audit_context(GRAPH, text, FORMATS.get("jsonl"), TOKENIZER)
    assert audit.nodes_differing == ("frontend",) and audit.nodes_covered == ("n:checkoutservice",)
    assert audit.edges_differing == ("e:frontend|calls|checkoutservice",) and audit.edges_covered == ()
    assert audit.foreign_records == 2


def test_a_context_in_another_format_gives_that_formats_error_with_its_place():
    text = jsonl_context().replace('"k":"n","id":"redis-cart"', '"k":"n","id":redis-cart')  # line 4 breaks
    with pytest.raises(FormatError) as raised:
        audit_context(GRAPH, text, FORMATS.get("jsonl"), TOKENIZER, source="context.jsonl")
    assert raised.value.where.startswith("context.jsonl, line 4")
    assert "not valid jsonl" in raised.value.what and "name the format the context is written in" in raised.value.fix


# --- with a question -----------------------------------------------------------------------------------------


def full_jsonl_without(*keys: str) -> str:
    return "\n".join(line for key, line in own_lines("jsonl").items() if key not in keys)


def test_a_question_reads_the_evidence_kept_and_whether_it_is_answered():
    gold = get_sample("online-boutique").default_query().solve(GRAPH)
    assert len(gold.evidence) == 6 and "e:checkoutservice|calls|cartservice" in gold.evidence
    audit = BENCH.audit(GRAPH, full_jsonl_without("e:checkoutservice|calls|cartservice"), FORMATS.get("jsonl"),
                        question=QUESTION)
    checked = audit.question
    assert checked.reading.startswith("read as impact(failed=cartservice") and checked.question == QUESTION
    assert (checked.evidence_kept, checked.evidence_total) == (5, 6)
    assert checked.evidence_missing == ("e:checkoutservice|calls|cartservice",)
    assert not checked.answered  # checkoutservice called cartservice only by that edge: the answer changes
    whole = BENCH.audit(GRAPH, full_jsonl_without(), FORMATS.get("jsonl"), question=QUESTION).question
    assert whole.answered and whole.evidence_survival == 1.0


def test_evidence_that_goes_missing_need_not_change_the_answer():
    """loadgenerator is a client, not a service: its edge is evidence, but the answer stands without it."""
    checked = BENCH.audit(GRAPH, full_jsonl_without("e:loadgenerator|calls|frontend"), FORMATS.get("jsonl"),
                          question=QUESTION).question
    assert checked.evidence_kept == 5 and checked.answered


def test_a_question_the_reader_cannot_read_or_without_an_answer_is_refused():
    with pytest.raises(QuestionNotRead):
        BENCH.audit(GRAPH, jsonl_context(), FORMATS.get("jsonl"), question="what is love")
    with pytest.raises(Exception, match="has no answer on this graph"):
        BENCH.audit(GRAPH, jsonl_context(), FORMATS.get("jsonl"), question="If cartservice fails, which services "
                                                                           "are affected?")


def test_the_workbench_takes_a_spec_as_it_takes_the_objects():
    text = jsonl_context()
    from_spec = BENCH.audit(RenderingSpec.from_names(GRAPH, "jsonl", tokenizer_name="cl100k_base"), text)
    from_objects = BENCH.audit(GRAPH, text, FORMATS.get("jsonl"), tokenizer=TOKENIZERS.get("cl100k_base"))
    assert from_spec == from_objects and from_spec.tokenizer_name == "cl100k_base"
    assert audit_document(from_spec)["duplicates"] == {"counted": True, "reason": "", "extra": 1,
                                                       "repeated": [{"key": "n:frontend", "written": 2,
                                                                     "graph_has": 1}]}


# --- any graph: a record prefix of the lab's own rendering -----------------------------------------------------


LOSSLESS = [name for name in FORMATS.names() if FORMATS.get(name).lossless]


@pytest.mark.parametrize("format_name", LOSSLESS)
@cross_product(30, small=5)
@given(graph=graphs(), data=st.data())
def test_a_record_prefix_holds_the_units_of_its_records_and_dangles_where_they_lack_an_end(format_name, graph, data):
    format_ = FORMATS.get(format_name)
    rendering = format_.render(graph, graph_units(graph))
    count = data.draw(st.integers(min_value=0, max_value=len(rendering.records)), label="records kept")
    kept = {key for record in rendering.records[:count] for key in record.unit_keys}
    audit = audit_context(graph, rendering.prefix_text(count), format_, TOKENIZER)
    by_key = dict(edge_keys(graph))
    ends = {end for key in kept if key in by_key for end in (by_key[key].source, by_key[key].target)}
    # a node the graph has typed "unknown" without properties reads the same from an edge's end as from its record
    standing = {f"n:{node.id}" for node in graph.nodes if node.id in ends and node.type == ORPHAN_TYPE
                and not node.properties}
    assert set(audit.nodes_covered) == {key for key in kept if key.startswith("n:")} | standing
    assert set(audit.edges_covered) == {key for key in kept if key.startswith("e:")}
    assert audit.foreign_records == 0 and audit.duplicates.repeated == ()
    written = set(audit.nodes_covered)
    assert len(audit.dangling_edges) == sum(1 for key in kept if key in by_key and not {
        f"n:{by_key[key].source}", f"n:{by_key[key].target}"} <= written)
