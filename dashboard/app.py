"""Graph Context Lab dashboard entry point: loads the bundled sample graph and shows the format overview."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import plotly.express as px
import streamlit as st

from core.benchmark import benchmark_report
from core.registry import FORMATS, TOKENIZERS

SAMPLE = Path(__file__).resolve().parents[1] / "sample_graphs" / "reference-services.jsonl"


@st.cache_data(max_entries=8)
def overview(encoding: str) -> pd.DataFrame:
    graph = FORMATS.get("jsonl").decode(SAMPLE.read_text(encoding="utf-8"))
    report, _ = benchmark_report(graph, encoding, {"sample": SAMPLE.name})
    table = pd.DataFrame.from_dict(report["formats"], orient="index")
    table.index.name = "format"
    return table.drop(columns=["query_checks"])


st.set_page_config(page_title="Graph Context Lab", page_icon="🕸️", layout="wide")
st.title("Graph Context Lab")
st.caption("What does writing a graph into a prompt cost, and what does it lose?")
encoding = st.sidebar.selectbox("Tokenizer", TOKENIZERS.names(), key="tokenizer")
table = overview(encoding)
st.subheader(f"Sample graph: {SAMPLE.name}")
st.dataframe(table, width="stretch")
st.plotly_chart(px.bar(table.reset_index(), x="format", y="tokens", title=f"Tokens per format ({encoding})"))
