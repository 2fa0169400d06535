"""The analysis pages' charts, drawn from core's tables (also drawn by the Exports page into its files)."""

from __future__ import annotations

import re

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from core.analysis.survival_curves import SURVIVAL_METRICS, survival_curves
from core.analysis.token_anatomy import CATEGORIES
from core.budget.policies import POLICIES
from core.retrieval import ORDERINGS

PALETTE = px.colors.qualitative.D3
COLOURS = dict(zip(CATEGORIES, ("#9ca3af", "#2563eb", "#7c3aed", "#16a34a", "#f59e0b", "#dc2626")))


def survival_figure(frame: pd.DataFrame, markers: pd.DataFrame, title: str) -> go.Figure:
    """Curves per metric (rows) and policy (columns), one line per format, with D_k(S) and full-text markers."""
    curves = survival_curves(frame)
    colours = {name: PALETTE[index % len(PALETTE)] for index, name in enumerate(dict.fromkeys(curves["format"]))}
    figure = px.line(curves, x="budget", y="value", color="format", facet_row="metric", facet_col="policy",
                     markers=True, log_x=True, color_discrete_map=colours, title=title, height=720,
                     category_orders={"metric": list(SURVIVAL_METRICS), "policy": list(POLICIES)},
                     hover_data={"budgeted_tokens": True, "records_kept": True, "records_total": True,
                                 "first_dropped_keys": True, "explanation": True, "metric": False, "policy": False})
    lines = []
    for row in markers.itertuples():
        colour = colours.get(row.format, "#6b7280")
        if pd.notna(row.coverage_tokens):
            lines.append((float(row.coverage_tokens), "dash", colour))
        lines.append((float(row.full_tokens), "dot", colour))
    add_vertical_lines(figure, lines)
    figure.for_each_annotation(lambda note: note.update(text=note.text.split("=")[-1]))
    figure.update_yaxes(range=[-0.05, 1.05], title=None)
    figure.update_xaxes(tickformat=",d", title=None)  # plain numbers on the log axis: 1,000 not 1k
    figure.for_each_annotation(lambda note: note.update(text=f"<b>{note.text}</b>"))
    figure.update_layout(legend_title=None)
    return figure


def add_vertical_lines(figure: go.Figure, lines: list[tuple[float, str, str]]) -> None:
    """What `add_vline(x, line_dash, line_color, opacity=0.6)` of each (x, dash, colour) draws in every
    subplot that holds a trace, added at once: plotly re-validates the whole layout on each add_vline,
    which cost most of the Budget survival page's redraw."""
    subplots = list(dict.fromkeys((trace.xaxis or "x", trace.yaxis or "y") for trace in figure.data))
    shapes = [{"type": "line", "x0": x, "x1": x, "xref": xref, "y0": 0, "y1": 1, "yref": f"{yref} domain",
               "line": {"dash": dash, "color": colour}, "opacity": 0.6}
              for x, dash, colour in lines for xref, yref in subplots]
    figure.update_layout(shapes=list(figure.layout.shapes) + shapes)


def ordering_label(name: str) -> str:
    return f"{name} (oracle)" if ORDERINGS.get(name).oracle else name


def orderings_figure(frame: pd.DataFrame, format_name: str, policy: str):
    frame = frame[frame["ordering"].isin(ORDERINGS.names())]  # the +ends variants are on the gap chart
    curves = frame.assign(ordering=[ordering_label(name) for name in frame["ordering"]])
    figure = px.line(curves, x="budget", y="evidence_survival", color="ordering", markers=True, log_x=True,
                     hover_data=["budgeted_tokens", "records_kept", "records_total", "traversal_accuracy",
                                 "first_dropped_keys"],
                     title=f"Evidence survival of {format_name} ({policy} policy) under every ordering")
    figure.update_yaxes(range=[-0.05, 1.05], title="evidence survival")
    figure.update_layout(legend_title=None)
    return figure


def pareto_figure(points: pd.DataFrame, accuracy: str, budget: int, approximate: bool = False) -> go.Figure:
    """Formats as points (lossy: crosses), the front as a line through its points in token order.

    `approximate`: the counts only estimate the chosen model's (a stand-in tokenizer), said on the axis.
    """
    figure = go.Figure()
    for optimal, lossless in ((True, True), (True, False), (False, True), (False, False)):
        part = points[(points["pareto_optimal"] == optimal) & (points["lossless"] == lossless)]
        if part.empty:
            continue
        figure.add_scatter(
            # Names on hover only: at one budget many formats share a point, and printed labels clump.
            x=part["tokens"], y=part["accuracy"], mode="markers",
            customdata=part[["format", "dominated_by"]].values, name=("front" if optimal else "dominated")
            + ("" if lossless else ", lossy"),
            marker={"size": 12, "symbol": "circle" if lossless else "x",
                    "color": "#16a34a" if optimal else "#9ca3af"},
            hovertemplate="%{customdata[0]}<br>%{x:,.0f} tokens<br>" + accuracy + " %{y:.3f}"
                          "<br>dominated by: %{customdata[1]}<extra></extra>")
    front = points[points["pareto_optimal"]].sort_values("tokens")
    figure.add_scatter(x=front["tokens"], y=front["accuracy"], mode="lines", name="non-dominated front",
                       line={"color": "#16a34a", "dash": "dash"}, hoverinfo="skip")
    figure.update_layout(title=f"Tokens used against {accuracy} at a budget of {budget:,} tokens",
                         xaxis_title="budgeted tokens used" + (" (≈ approximate)" if approximate else ""), yaxis_title=accuracy, legend_title=None,
                         clickmode="event+select")
    figure.update_yaxes(range=[-0.05, 1.05], tickformat=".0%" if accuracy == "evidence survival" else ".1f")
    figure.update_xaxes(tickformat=",d")
    return figure


def anatomy_chart(table: pd.DataFrame, tokenizer: str):
    long = table[list(CATEGORIES)].reset_index().melt(id_vars="format", var_name="category", value_name="tokens")
    figure = px.bar(long, x="format", y="tokens", color="category", color_discrete_map=COLOURS,
                    category_orders={"category": list(CATEGORIES), "format": list(table.index)},
                    title=f"Where the tokens go ({tokenizer})")
    figure.update_layout(xaxis_title=None, legend_title=None, barmode="stack")
    return figure


STREAMLIT_PLACEHOLDER = re.compile(r"#0000(\d\d)")  # Streamlit's template colours, replaced by its front end


def standalone(figure: go.Figure) -> go.Figure:
    """The figure as it draws outside Streamlit: a real template, and Streamlit's placeholder trace colours
    (#000001, #000002, ... which plotly.js draws black) replaced by the same-position Plotly colours."""
    copy = go.Figure(figure)
    copy.update_layout(template="plotly_white")
    palette = px.colors.qualitative.Plotly

    def real(colour):
        match = STREAMLIT_PLACEHOLDER.fullmatch(colour) if isinstance(colour, str) else None
        return palette[(int(match.group(1)) - 1) % len(palette)] if match else colour

    for trace in copy.data:
        for part in ("line", "marker"):
            if part in trace and getattr(trace, part).color is not None:
                getattr(trace, part).color = real(getattr(trace, part).color)
    return copy
