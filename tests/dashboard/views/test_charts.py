"""The analysis charts: the survival figure's marker lines are the ones plotly's add_vline draws."""

from __future__ import annotations

import pandas as pd
import plotly.express as px

from dashboard.views.charts import add_vertical_lines


def _faceted() -> object:
    curves = pd.DataFrame({"budget": [10, 100, 10, 100, 10, 100], "value": [0.1, 0.5, 0.2, 0.9, 0.3, 1.0],
                           "format": ["a", "a", "b", "b", "a", "a"], "metric": ["m", "m", "m", "m", "n", "n"],
                           "policy": ["raw", "raw", "raw", "raw", "record", "record"]})
    # two of the four subplots hold no trace (m with record, n with raw): add_vline leaves them out
    return px.line(curves, x="budget", y="value", color="format", facet_row="metric", facet_col="policy", log_x=True)


def _shapes(figure) -> list[dict]:
    return sorted((shape.to_plotly_json() for shape in figure.layout.shapes),
                  key=lambda shape: (shape["x0"], shape["xref"], shape["yref"], shape["line"]["dash"]))


def test_vertical_lines_are_those_of_add_vline_in_every_subplot_with_a_trace() -> None:
    lines = [(40.0, "dash", "#1f77b4"), (60.0, "dot", "#ff7f0e")]
    ours, plotly_own = _faceted(), _faceted()
    add_vertical_lines(ours, lines)
    for x, dash, colour in lines:
        plotly_own.add_vline(x=x, line_dash=dash, line_color=colour, opacity=0.6)
    assert len(plotly_own.layout.shapes) == 2 * 2
    assert _shapes(ours) == _shapes(plotly_own)
