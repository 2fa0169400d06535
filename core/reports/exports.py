"""Exports of a sweep and its contexts: CSV, JSON records in the seed's result schema, a zip of contexts, a report.

`result_records` writes one record per sweep row with the seed document's result fields first
(`run_id`, `graph_hash`, `format`, `ordering`, `budget_tokens`, `model`, `tokenizer`, ...); the
model's fields stay empty (None) because a sweep sends nothing to a model, and the cut's own
figures follow. The run id is derived from the sweep's parameters, so the same settings export the
same id. `report_html` builds one self-contained page in which every piece of text is escaped.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import io
import json
import math
import re
import zipfile
from collections.abc import Sequence

import pandas as pd

from core.budget.policies import Cut
from core.number_style import MISSING, column_formatters
from core.reports.column_words import words

SEED_FIELDS = ("run_id", "graph_hash", "format", "ordering", "budget_tokens", "model", "tokenizer",
               "prompt_tokens_reported", "completion_tokens_reported", "parse_success", "exact_match",
               "affected_services_f1", "owners_exact_match", "latency_ms", "raw_response_path")
MODEL_FIELDS = ("model", "prompt_tokens_reported", "completion_tokens_reported", "exact_match",
                "affected_services_f1", "owners_exact_match", "latency_ms", "raw_response_path")
CUT_FIELDS = ("query", "question", "layout", "policy", "lossless", "tokens", "grammar_tokens", "budgeted_tokens",
              "records_kept", "records_total", "evidence_survival", "traversal_accuracy", "coverage_tokens",
              "first_dropped_keys")


def run_id(frame: pd.DataFrame) -> str:
    """A stable id for a sweep: the hash of its parameters and of the settings in its rows."""
    settings = {"parameters": frame.attrs.get("parameters", {}),
                "rows": sorted(map(list, frame[["format", "ordering", "layout", "policy", "budget"]]
                                   .astype(str).drop_duplicates().itertuples(index=False)))}
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode("utf-8")).hexdigest()
    return f"sweep-{digest[:16]}"


def results_csv(frame: pd.DataFrame) -> str:
    """The sweep as CSV, one row per cut and query, every column."""
    return frame.to_csv(index=False, lineterminator="\n")


def result_records(frame: pd.DataFrame) -> list[dict]:
    """One record per sweep row in the seed's result schema, then the cut's figures."""
    identifier = run_id(frame)
    records = []
    for row in frame.to_dict("records"):
        record = dict.fromkeys(SEED_FIELDS)
        record.update(run_id=identifier, graph_hash=row["graph_hash"], format=row["format"],
                      ordering=row["ordering"], budget_tokens=int(row["budget"]), tokenizer=row["tokenizer"],
                      parse_success=bool(row["parse_ok"]))
        record.update({name: plain_value(row[name]) for name in CUT_FIELDS})
        records.append(record)
    return records


def results_json(frame: pd.DataFrame) -> str:
    return json.dumps(result_records(frame), ensure_ascii=False, indent=1)


def plain_value(value):
    """A JSON-ready value: numpy and pandas scalars as Python ones, missing values as None (also the CLI's
    JSON and CSV cells)."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value.item() if hasattr(value, "item") else value


def context_name(cut_: Cut) -> str:
    return f"{cut_.format_name}__{cut_.policy}__{cut_.budget}.txt"


def contexts_zip(cuts: Sequence[Cut]) -> bytes:
    """A zip holding each cut's context exactly as sent (document and marker line), one file per cut."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for cut_ in cuts:
            archive.writestr(context_name(cut_), cut_.text.encode("utf-8", "surrogatepass"))
    return buffer.getvalue()


# Why the report was 4.9 MB: 4.8 MB of it was plotly.js written out in full. It is written gzip-compressed and
# base64-encoded (2.0 MB), unpacked by the browser itself (DecompressionStream), and the charts' scripts wait
# for it (their type is DEFERRED_CHART until the library runs): the page still loads nothing from anywhere.
DEFERRED_CHART = "text/x-deferred-chart"
_CHART_SCRIPT = re.compile(r"<script(?:\s+type=[\"']text/javascript[\"'])?>")
LOADER = """window.addEventListener("DOMContentLoaded", async () => {
  const bytes = Uint8Array.from(atob("PACKED"), (character) => character.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const library = document.createElement("script");
  library.text = await new Response(stream).text();
  document.head.appendChild(library);
  for (const chart of document.querySelectorAll("script[type='DEFERRED']")) {
    const run = document.createElement("script");
    run.text = chart.text;
    chart.replaceWith(run);
  }
});"""


def packed_plotly() -> str:
    """plotly.js, gzip-compressed (the same bytes on every call) and base64-encoded."""
    from plotly.offline import get_plotlyjs  # only the report needs the 4 MB library

    return base64.b64encode(gzip.compress(get_plotlyjs().encode("utf-8"), 9, mtime=0)).decode("ascii")


def plotly_script() -> str:
    """plotly.js itself, packed in one script tag that unpacks it and then draws the charts, so a page of chart
    fragments (report_html) draws offline."""
    loader = LOADER.replace("PACKED", packed_plotly()).replace("DEFERRED", DEFERRED_CHART)
    return f"<script type='text/javascript'>{loader}</script>"


def report_cells(table: pd.DataFrame) -> str:
    """A report table in the number style (core.number_style: 1,100 and 8%, never 1100 or 0.081081), its headers
    in words."""
    numeric = [column for column in table.columns if pd.api.types.is_numeric_dtype(table[column])
               and not pd.api.types.is_bool_dtype(table[column])]
    integral = [column for column in numeric if pd.api.types.is_integer_dtype(table[column])]
    formatters = column_formatters(table.columns, numeric, integral)
    shown = table.copy()
    for column, formatter in formatters.items():
        shown[column] = table[column].map(formatter)
    return shown.rename(columns=words).to_html(index=False, escape=True, na_rep=MISSING)


def report_html(title: str, url: str, facts: Sequence[tuple[str, str]], tables: Sequence[tuple[str, pd.DataFrame]],
                charts: Sequence[tuple[str, str]], script: str = "") -> str:
    """One self-contained page: title, the URL that reproduces it, facts, tables and chart fragments.

    Chart fragments are trusted HTML made by the plotting library from data it escapes; `script` is
    the library itself, written once. Everything else is escaped here.
    """
    escape = html.escape
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>",
             "<style>body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;"
             "font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px}th{background:#f3f4f6}</style>",
             script, "</head><body>", f"<h1>{escape(title)}</h1>",
             f"<p>Reproduce this view: <a href='{escape(url, quote=True)}'>{escape(url)}</a></p>", "<dl>"]
    parts += [f"<dt><b>{escape(label)}</b></dt><dd>{escape(value)}</dd>" for label, value in facts]
    parts.append("</dl>")
    for caption, table in tables:
        parts += [f"<h2>{escape(caption)}</h2>", report_cells(table)]
    for caption, fragment in charts:  # each chart's script waits for the packed library (plotly_script)
        parts += [f"<h2>{escape(caption)}</h2>", _CHART_SCRIPT.sub(f'<script type="{DEFERRED_CHART}">', fragment)]
    parts.append("</body></html>")
    return "\n".join(parts)
