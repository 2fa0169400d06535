"""The analysis charts outside Streamlit: the files the Exports page writes draw with real colours."""

from __future__ import annotations

import pandas as pd
import plotly.express as px

from dashboard.views.charts import standalone


def test_a_chart_outside_streamlit_gets_real_colours_in_trace_order():
    frame = pd.DataFrame({"budget": [1, 2, 1, 2], "share": [0.1, 0.2, 0.3, 0.4], "ordering": ["a", "a", "b", "b"]})
    figure = px.line(frame, x="budget", y="share", color="ordering", template="streamlit")
    assert [trace.line.color for trace in figure.data] == ["#000001", "#000002"]
    assert [trace.line.color for trace in standalone(figure).data] == list(px.colors.qualitative.Plotly[:2])
