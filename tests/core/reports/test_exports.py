"""Exports: CSV and seed-schema JSON that parse back, zips of exact contexts, reports with every text escaped."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pandas as pd

from core.analysis.budget_sweep import budget_sweep
from core.budget.policies import cut
from core.formats import FORMATS
from core.graph.units import graph_units
from core.io.samples import default_sample, load_sample
from core.reports.exports import (
    MODEL_FIELDS,
    SEED_FIELDS,
    context_name,
    contexts_zip,
    report_html,
    result_records,
    results_csv,
    results_json,
    run_id,
)
from core.retrieval.seeds import Seeds
from core.tokens import TOKENIZERS
from core.tokens.prefix_tokens import prefix_tokens

SAMPLE = default_sample()
GRAPH = load_sample(SAMPLE.name)


def small_sweep(budgets=(300, 3000)):
    return budget_sweep(GRAPH, SAMPLE.default_query(), Seeds(tuple(SAMPLE.seeds)), formats=["csv", "typed_edges"],
                        orderings=["hop_tiers"], layout="interleaved", budgets=budgets)


def test_csv_parses_back_with_every_row_and_column():
    frame = small_sweep()
    back = pd.read_csv(io.StringIO(results_csv(frame)))
    assert list(back.columns) == list(frame.columns) and len(back) == len(frame)
    assert back["budgeted_tokens"].tolist() == frame["budgeted_tokens"].tolist()


def test_json_records_follow_the_seed_schema_with_empty_model_fields():
    frame = small_sweep()
    records = json.loads(results_json(frame))
    assert list(records[0])[:len(SEED_FIELDS)] == list(SEED_FIELDS)
    assert all(record[field] is None for record in records for field in MODEL_FIELDS)
    assert [(r["format"], r["policy"], r["budget_tokens"]) for r in records] == \
        list(zip(frame["format"], frame["policy"], frame["budget"]))
    assert [r["parse_success"] for r in records] == frame["parse_ok"].tolist()
    assert {r["graph_hash"] for r in records} == {GRAPH.sha256}


def test_the_run_id_is_stable_for_the_same_settings_and_differs_for_others():
    assert run_id(small_sweep()) == run_id(small_sweep()) == result_records(small_sweep())[0]["run_id"]
    assert run_id(small_sweep((300,))) != run_id(small_sweep())


def test_the_zip_holds_each_context_exactly_as_sent():
    encoder = TOKENIZERS.get("o200k_base")
    cuts = []
    for name in ("pretty_json", "jsonl"):
        format_ = FORMATS.get(name)
        accounting = prefix_tokens(format_.render(GRAPH, graph_units(GRAPH)), encoder)
        cuts += [cut(accounting, format_, "raw", 500), cut(accounting, format_, "record", 500, marker=True)]
    archive = zipfile.ZipFile(io.BytesIO(contexts_zip(cuts)))
    assert sorted(archive.namelist()) == sorted(context_name(result) for result in cuts)
    for result in cuts:
        assert archive.read(context_name(result)).decode("utf-8") == result.text


def test_the_report_escapes_every_text_and_prints_its_url():
    hostile = "<img src=x onerror=alert(1)>"
    page = report_html(hostile, "http://localhost:8501/?q=" + hostile, [("Graph", hostile)],
                       [("Table " + hostile, pd.DataFrame({"format": [hostile]}))], [])
    assert "<img" not in page
    assert page.count("&lt;img src=x onerror=alert(1)&gt;") == 7  # title, heading, link, its text, fact, caption, cell
    assert "Reproduce this view" in page


def test_the_report_embeds_the_whole_plotly_library_once_packed():
    import base64
    import gzip
    import re

    import plotly.graph_objects as go
    from plotly.offline import get_plotlyjs

    from core.reports.exports import DEFERRED_CHART, plotly_script, report_html

    fragment = go.Figure(go.Bar(x=[1], y=[2])).to_html(include_plotlyjs=False, full_html=False)
    page = report_html("t", "http://127.0.0.1/", [], [], [("chart", fragment)], plotly_script())
    [packed] = re.findall(r'atob\("([A-Za-z0-9+/=]+)"\)', page)
    assert gzip.decompress(base64.b64decode(packed)).decode("utf-8") == get_plotlyjs()  # the whole library, once
    # 4.8 MB of library was 98% of a 4.9 MB report; packed it is 2.0 MB
    assert len(page) < 0.45 * len(get_plotlyjs()) and "<script src" not in page and "Plotly.newPlot" in page
    assert page.count(f'<script type="{DEFERRED_CHART}">') == 1  # the chart waits for the library


def test_the_report_tables_are_in_the_number_style_with_headers_in_words():
    from core.number_style import unformatted_numbers

    table = pd.DataFrame({"format": ["csv"], "budget": [1100], "budgeted_tokens": [4082],
                          "evidence_survival": [0.081081], "parse_ok": [True]})
    page = report_html("t", "http://127.0.0.1/", [], [("cuts", table)], [])
    assert "1,100" in page and "4,082" in page and "8%" in page and "tokens used" in page
    assert "0.081081" not in page and unformatted_numbers(re.sub(r"<[^>]+>", " ", page)) == []
