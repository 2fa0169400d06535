"""The dashboard starts on the bundled sample and shows core's per-format figures."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.benchmark import benchmark_report
from core.registry import FORMATS

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py")
SAMPLE = Path(__file__).resolve().parents[2] / "sample_graphs" / "reference-services.jsonl"


def test_the_overview_shows_core_figures_for_the_sample():
    app = AppTest.from_file(APP, default_timeout=120).run()
    assert not app.exception
    table = app.dataframe[0].value
    graph = FORMATS.get("jsonl").decode(SAMPLE.read_text(encoding="utf-8"))
    report, _ = benchmark_report(graph, "o200k_base", {})
    for name, figures in report["formats"].items():
        assert table.loc[name, "tokens"] == figures["tokens"]


def test_switching_the_tokenizer_changes_the_counts():
    app = AppTest.from_file(APP, default_timeout=120).run()
    before = app.dataframe[0].value["tokens"].tolist()
    app.sidebar.selectbox(key="tokenizer").set_value("cl100k_base").run()
    assert app.dataframe[0].value["tokens"].tolist() != before
