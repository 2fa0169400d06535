"""A Contexts panel reads its cut from the kept units: a budget change decodes no text (megabytes on a large graph)."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from itertools import accumulate

from core.formats import FORMATS
from core.io.samples import load_sample
from dashboard import cache
from tests.dashboard.conftest import metric, on_page, started


def test_a_budget_change_decodes_nothing_and_shows_the_new_cut(monkeypatch):
    app = on_page(started(sample="nvidia-jetson", formats=["pretty_json", "compact_json"], policy="record",
                          budget="600"), "contexts")
    decoded: list[str] = []
    for name in ("pretty_json", "compact_json"):
        format_ = FORMATS.get(name)
        counting = replace(format_, decode=lambda text, original=format_.decode, name=name:
                           decoded.append(name) or original(text))
        monkeypatch.setitem(FORMATS._entries, name, counting)
    before = metric(app, "Records kept / total")
    app.main.slider(key="budget_slider").set_value(1500).run()
    assert not app.exception, [item.value for item in app.exception]
    assert metric(app, "Records kept / total") != before and metric(app, "Parses") == ["yes", "yes"]
    assert decoded == []


def test_a_sections_cut_runs_behind_a_spinner_that_says_what_it_does(monkeypatch):
    import contextlib

    import streamlit

    shown: list[str] = []
    real = streamlit.spinner

    @contextlib.contextmanager
    def recorded(text="", **options):
        shown.append(text)
        with real(text, **options):
            yield

    monkeypatch.setattr(streamlit, "spinner", recorded)
    on_page(started(sample="nvidia-jetson", formats=["pretty_json"], policy="sections", budget="600"), "contexts")
    assert "Choosing pretty_json's units (sections): each try renders and counts a document…" in shown
    shown.clear()
    on_page(started(sample="nvidia-jetson", formats=["pretty_json"], policy="record", budget="600"), "contexts")
    assert not any("sections" in text for text in shown)  # a record cut is a lookup: no spinner


def test_the_records_underlined_follow_the_query_not_the_first_query_asked_of_the_rendering():
    # Two queries share one rendering (canonical order does not depend on the query); the records carrying
    # evidence were once kept with the rendering's text, so the second query showed the first one's.
    from core.queries import QUERIES, query

    graph = load_sample("nvidia-jetson")
    spec = cache.rendering_spec(graph, "csv", "canonical", "nodes_then_edges", (), frozenset(), "o200k_base")
    accounting = cache.workbench().account(spec)
    records = accounting.rendering.records
    shown = []
    for hops in (1, 3):
        asked = query(QUERIES.get("dependencies_within"), start="12", hops=hops, relation="depends_on")
        evidence = asked.solve(graph).evidence
        cache.text_layout(spec.digest, accounting)
        shown.append(cache.evidence_records(accounting, evidence))
        assert shown[-1] == [index for index, record in enumerate(records) if evidence.intersection(record.unit_keys)]
    assert shown[0] != shown[1]


def test_each_underlined_evidence_stretch_is_whole_records_of_the_rendering():
    # The panel places its underlines from the records' character bounds (cache.text_layout): a bound off by one
    # would underline part of a neighbouring record, or miss a record's last character.
    app = on_page(started(sample="nvidia-jetson", formats=["csv"], policy="record", budget="900",
                          token_colours="false"), "contexts")
    panel = next(element.proto.body for element in app.get("html")
                 if element.proto.body.startswith('<div class="gcl-context">'))
    # Without token colours an evidence stretch is one span each: "k kb" kept, "c cb" cut.
    stretches = [html.unescape(text) for text in re.findall(r'<span class="(?:k kb|c cb)">([^<]*)</span>', panel)]
    graph = load_sample("nvidia-jetson")
    spec = cache.rendering_spec(graph, "csv", "canonical", "nodes_then_edges", (), frozenset(), "o200k_base")
    rendering = cache.workbench().account(spec).rendering
    text = rendering.text
    bounds = set(accumulate((len(record.text) for record in rendering.records), initial=len(rendering.preamble)))
    assert stretches and all(stretch for stretch in stretches)
    for stretch in stretches:
        start = text.find(stretch)
        assert start in bounds and start + len(stretch) in bounds, stretch


def test_an_empty_answer_is_refused_rather_than_shown_at_100_percent():
    # adservice calls nothing: the query's answer, and so its evidence, is empty; no page measures it.
    app = on_page(started(sample="online-boutique", formats=["csv"], query="dependencies_within", q_start="adservice",
                          q_hops="1", q_relation="calls"), "contexts")
    assert metric(app, "Evidence survival") == [] and metric(app, "Traversal accuracy") == []
    assert any("This query has no answer on this graph" in item.value for item in app.error)
    answered = on_page(started(sample="online-boutique", formats=["csv"], query="dependencies_within",
                               q_start="frontend", q_hops="1", q_relation="calls"), "contexts")
    assert metric(answered, "Evidence survival")[0].endswith("%")
