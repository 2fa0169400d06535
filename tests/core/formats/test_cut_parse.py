"""A raw cut's parse verdict from its tail equals decoding the whole cut: on every sample, and on hostile graphs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import FormatError
from core.formats import FORMATS
from core.formats.cut_parse import combined_graph, tail_document, tail_verdict
from core.graph.kept import UnitPositions, image_positions
from core.io.samples import load_sample, sample_names
from core.metrics.coverage import seed_region
from core.retrieval import ORDERINGS
from core.retrieval.ordering import OrderingInputs, layouts_for, order_units
from tests.hypothesis_profiles import examples
from tests.strategies import graphs

TAIL_FORMATS = [name for name in FORMATS.names() if FORMATS.get(name).tail_start is not None]
EXAMPLES = examples(60, 25)
CUTS_PER_RENDERING = examples(40, 12)  # cut points per rendering and sample


def _whole_decode(format_, document):
    """(error text, None) or ("", graph): what decoding the whole cut gives."""
    try:
        return "", format_.decode(document)
    except FormatError as error:
        return str(error), None


def _record_ends(rendering) -> list[int]:
    """Character offset where each record prefix's records end (index 0: the preamble)."""
    ends = [len(rendering.preamble)]
    for record in rendering.records:
        ends.append(ends[-1] + len(record.text))
    return ends


def _positions(graph, format_, rendering):
    """The kept-view positions a sweep reads this rendering's cuts with (a lossy format's: of its image)."""
    if not format_.lossless:
        return image_positions(graph, format_, rendering.records)
    record_of_key = {}
    for index, record in enumerate(rendering.records):
        for key in record.unit_keys:
            record_of_key.setdefault(key, index)
    return UnitPositions(graph, record_of_key)


def _check_cut(format_, rendering, ends, length, broken_character=False, positions=None) -> str:
    """Compare the tail's verdict on text[:length] with the whole decode; say which way it was decided."""
    text = rendering.text
    document = text[:length] + ("\ufffd" if broken_character else "")
    kept = max(index for index, end in enumerate(ends) if end <= length)
    if document == rendering.prefix_text(kept):
        return "prefix"  # a record prefix: read from its kept units, no parse check needed
    own_record = (lambda node_id: positions.own_record(node_id, kept)) if positions is not None else None
    verdict = tail_verdict(format_, rendering, kept, ends[kept], document, own_record)
    if verdict is None:
        return "whole"
    error, graph = _whole_decode(format_, document)
    if verdict.error:
        assert error == verdict.error, (format_.name, document[-80:])
        return "error"
    assert not error, (format_.name, document[-80:], error)
    records = format_.decode(rendering.prefix_text(kept))
    if verdict.whole_records_only:
        assert not verdict.adds_units and graph == records, (format_.name, document[-80:])
        return "records"
    assert combined_graph(records, verdict) == graph, (format_.name, document[-80:])
    # the sweep's kept view with the tail's units is that graph too
    assert positions.kept(kept, verdict.nodes, verdict.edges).as_graph() == graph, (format_.name, document[-80:])
    return "units"


@pytest.mark.parametrize("name", TAIL_FORMATS)
def test_the_tail_decides_every_raw_cut_as_decoding_the_whole_cut_does_on_every_sample(name):
    format_ = FORMATS.get(name)
    decided = {"prefix": 0, "whole": 0, "error": 0, "records": 0, "units": 0}
    for sample in sample_names():
        graph = load_sample(sample)
        seeds = (graph.nodes[0].id,)
        region = seed_region(graph, seeds)
        for ordering_name in ("canonical", "shuffled", "bfs_from_seeds"):
            for layout in layouts_for(format_):
                units = order_units(graph, region.units, ORDERINGS.get(ordering_name), layout,
                                    OrderingInputs(seeds, frozenset(), 3))
                rendering = format_.render(graph, units)
                positions = _positions(graph, format_, rendering)
                ends = _record_ends(rendering)
                text = rendering.text
                step = max((len(text) - ends[0]) // CUTS_PER_RENDERING, 1)
                for length in range(ends[0], len(text) + 1, step):
                    decided[_check_cut(format_, rendering, ends, length, positions=positions)] += 1
                    decided[_check_cut(format_, rendering, ends, length, True, positions)] += 1
    # the fast path must actually decide cuts (otherwise this test would pass by never using it)
    assert decided["error"] + decided["records"] + decided["units"] > 4 * decided["whole"], decided


@pytest.mark.parametrize("name", TAIL_FORMATS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(graph=graphs(), data=st.data())
def test_the_tail_decides_raw_cuts_of_hostile_graphs_as_the_whole_decode_does(name, graph, data):
    format_ = FORMATS.get(name)
    ordering = ORDERINGS.get(data.draw(st.sampled_from(["canonical", "shuffled"]), label="ordering"))
    layout = data.draw(st.sampled_from(layouts_for(format_)), label="layout")
    seeds = (graph.nodes[0].id,)
    units = order_units(graph, seed_region(graph, seeds).units, ordering, layout, OrderingInputs(seeds, frozenset(), 1))
    rendering = format_.render(graph, units)
    ends = _record_ends(rendering)
    length = data.draw(st.integers(ends[0], len(rendering.text)), label="cut at")
    _check_cut(format_, rendering, ends, length, data.draw(st.booleans(), label="broken"),
               _positions(graph, format_, rendering))


def test_the_tail_keeps_the_line_numbers_of_the_whole_cut():
    format_ = FORMATS.get("typed_edges")
    graph = load_sample(sample_names()[0])
    rendering = format_.render(graph, order_units(graph, seed_region(graph, (graph.nodes[0].id,)).units,
                                                  ORDERINGS.get("canonical"), "interleaved",
                                                  OrderingInputs((graph.nodes[0].id,))))
    ends = _record_ends(rendering)
    document = rendering.text[:ends[3] + 3]  # three whole records, then "\nE|" or "\nN|" of the fourth
    padded = tail_document(format_, rendering, 3, ends[3], document)
    assert padded.split("\n")[0] == rendering.preamble.split("\n")[0]
    assert padded.count("\n") == document.count("\n") and padded.endswith(document[ends[3]:])
    assert not padded.split("\n")[1].strip()  # the whole records are blank lines now
    verdict = tail_verdict(format_, rendering, 3, ends[3], document)
    assert verdict.error == _whole_decode(format_, document)[0] and "line 5" in verdict.error
