"""The analysis pages' charts, drawn from core's tables (also drawn by the Exports page into its files)."""

from __future__ import annotations

import re

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from core.analysis.survival_curves import SURVIVAL_METRICS, survival_curves
from core.analysis.token_anatomy import CATEGORIES
from core.budget import DEFAULT_POLICIES
from core.number_style import SHARE_D3, TOKENS_D3
from core.reports.axis_ticks import log_ticks
from core.retrieval import ORDERINGS

PALETTE = px.colors.qualitative.D3
COLOURS = dict(zip(CATEGORIES, ("#9ca3af", "#2563eb", "#7c3aed", "#16a34a", "#f59e0b", "#dc2626")))


BUDGET_TITLE = "budget (tokens)"
INSPECTED_COLOUR = "#111827"


EXACT_TICKS = 7  # up to this many budgets on a chart are ticked at their own values


def budget_axis(figure: go.Figure, budgets, title: str | None = BUDGET_TITLE, exact=None) -> None:
    """Every x axis of the figure as a log axis of budgets whose ticks are 1-2-5 × 10ⁿ in the number style
    (core.reports.axis_ticks), or the `exact` budgets themselves: plotly's own ticks collide on a short range and
    read as bare mantissas on a long one."""
    values, texts = log_ticks(budgets) if exact is None else (tuple(exact), tuple(f"{int(value):,}" for value in exact))
    figure.update_xaxes(type="log", tickmode="array", tickvals=list(values), ticktext=list(texts), title=None)
    if title:
        figure.update_layout(xaxis_title=title)


def share_axis(figure: go.Figure, title: str | None) -> None:
    """Every y axis as a share from 0% to 100%."""
    figure.update_yaxes(range=[-0.05, 1.05], tickformat=SHARE_D3, title=None)
    if title:
        figure.update_layout(yaxis_title=title)


def mark_inspected(figure: go.Figure, budget: int) -> None:
    """A solid vertical line at the inspected budget in every subplot (named under the axis by the caller: a
    label at the top collides with the facet titles)."""
    add_vertical_lines(figure, [(float(budget), "solid", INSPECTED_COLOUR)])


def survival_figure(frame: pd.DataFrame, markers: pd.DataFrame, title: str, inspected: int | None = None) -> go.Figure:
    """Curves per metric (rows) and policy (columns), one line per format, with D_k(S) and full-text markers and,
    when given, the inspected budget."""
    curves = survival_curves(frame)
    colours = {name: PALETTE[index % len(PALETTE)] for index, name in enumerate(dict.fromkeys(curves["format"]))}
    figure = px.line(curves, x="budget", y="value", color="format", facet_row="metric", facet_col="policy",
                     markers=True, log_x=True, color_discrete_map=colours, title=title, height=720,
                     category_orders={"metric": list(SURVIVAL_METRICS),
                                      "policy": list(dict.fromkeys((*DEFAULT_POLICIES, *curves["policy"])))},
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
    figure.for_each_annotation(lambda note: note.update(text=f"<b>{note.text}</b>"))
    figure.update_yaxes(range=[-0.05, 1.05], tickformat=SHARE_D3, title=None)
    budget_axis(figure, curves["budget"], title=None)
    figure.update_traces(hovertemplate="%{fullData.name}: %{y:.0%} at %{x:,} tokens<br>tokens used "
                                       "%{customdata[0]:,}, records kept %{customdata[1]:,} of %{customdata[2]:,}"
                                       "<br>first units dropped: %{customdata[3]}<br>%{customdata[4]}<extra></extra>")
    figure.update_layout(legend_title=None, margin={"b": 60})
    figure.add_annotation(text=BUDGET_TITLE + (f" · solid black line: the inspected budget, {inspected:,}" if inspected
                                               else ""), x=0.5, y=0, yref="paper", xref="paper", yshift=-45,
                          showarrow=False)
    if inspected:
        mark_inspected(figure, inspected)
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
    figure = px.line(curves, x="budget", y="evidence_survival", color="ordering", markers=True,
                     custom_data=["budgeted_tokens", "records_kept", "records_total", "traversal_accuracy",
                                  "first_dropped_keys"],
                     title=f"Evidence survival of {format_name} ({policy} policy) under every ordering")
    figure.update_traces(hovertemplate="%{fullData.name}: evidence survival %{y:.0%} at %{x:,} tokens<br>tokens used "
                                       "%{customdata[0]:,}, records kept %{customdata[1]:,} of %{customdata[2]:,}, "
                                       "traversal accuracy %{customdata[3]:.0%}<br>first units dropped: "
                                       "%{customdata[4]}<extra></extra>")
    budget_axis(figure, curves["budget"])
    share_axis(figure, "evidence survival")
    figure.update_layout(legend_title=None)
    return figure


SHOWN_NAMES = 3  # names written beside a point that several formats share; the rest on hover


def shared_points(points: pd.DataFrame) -> pd.DataFrame:
    """One marker per (budget, accuracy) with the formats sharing it: named beside it (the first few), every one
    on hover; a click opens the one using the fewest tokens there."""
    rows = []
    for (budget, accuracy), group in points.sort_values(["tokens", "format"]).groupby(["reach_budget", "accuracy"],
                                                                                      sort=False):
        names = list(group["format"])
        label = ", ".join(names[:SHOWN_NAMES]) + (f" +{len(names) - SHOWN_NAMES:,}" if len(names) > SHOWN_NAMES else "")
        first = group.iloc[0]
        rows.append({"reach_budget": budget, "accuracy": accuracy, "format": first["format"], "label": label,
                     "formats": ", ".join(names), "dominated_by": first["dominated_by"], "tokens": first["tokens"]})
    return pd.DataFrame(rows, columns=["reach_budget", "accuracy", "format", "label", "formats", "dominated_by",
                                       "tokens"])


def pareto_figure(points: pd.DataFrame, accuracy: str, approximate: bool = False) -> go.Figure:
    """The front over what answers (core.analysis.answer_front): per format, each accuracy it reaches against
    the smallest swept budget reaching it, as steps; front points green and named, the others grey (lossy:
    crosses). `approximate`: the budgets count a stand-in tokenizer's tokens, said on the axis."""
    figure = go.Figure()
    for name, curve in points.sort_values(["reach_budget", "accuracy"]).groupby("format", sort=False):
        figure.add_scatter(x=curve["reach_budget"], y=curve["accuracy"], mode="lines", line={"color": "#d1d5db",
                           "shape": "hv", "width": 1}, hoverinfo="skip", showlegend=False, legendgroup=str(name))
    for optimal, lossless in ((True, True), (True, False), (False, True), (False, False)):
        part = shared_points(points[(points["pareto_optimal"] == optimal) & (points["lossless"] == lossless)])
        if part.empty:
            continue
        figure.add_scatter(
            # Front points are named; the dominated ones on hover (their names collide along a row of equal accuracy).
            x=part["reach_budget"], y=part["accuracy"], mode="markers+text" if optimal else "markers",
            text=part["label"] if optimal else None,
            textposition="bottom right", textfont={"size": 11 if optimal else 9,
                                                   "color": "#15803d" if optimal else "#6b7280"},
            customdata=part[["format", "dominated_by", "reach_budget", "tokens", "formats"]].values,
            name=("on the front" if optimal else "dominated") + ("" if lossless else ", lossy"),
            marker={"size": 12 if optimal else 9, "symbol": "circle" if lossless else "x",
                    "color": "#16a34a" if optimal else "#9ca3af"},
            hovertemplate="%{customdata[4]}: " + accuracy + " %{y:.0%} from a budget of %{x:,} tokens "
                          "(%{customdata[3]:,.0f} used)<br>dominated by: %{customdata[1]}<extra></extra>")
    front = points[points["pareto_optimal"]].sort_values(["reach_budget", "accuracy"])
    figure.add_scatter(x=front["reach_budget"], y=front["accuracy"], mode="lines", name="front over what answers",
                       line={"color": "#16a34a", "dash": "dash", "shape": "hv"}, hoverinfo="skip")
    reached = sorted(set(points["reach_budget"]))
    budget_axis(figure, points["reach_budget"], exact=reached if len(reached) <= EXACT_TICKS else None,
                title="smallest budget reaching the accuracy (tokens)"
                + (" (≈ approximate)" if approximate else ""))
    share_axis(figure, accuracy)
    figure.update_layout(title=f"{accuracy.capitalize()} against the smallest budget that reaches it",
                         legend_title=None, clickmode="event+select")
    return figure


def anatomy_chart(table: pd.DataFrame, tokenizer: str):
    long = table[list(CATEGORIES)].reset_index().melt(id_vars="format", var_name="category", value_name="tokens")
    figure = px.bar(long, x="format", y="tokens", color="category", color_discrete_map=COLOURS,
                    category_orders={"category": list(CATEGORIES), "format": list(table.index)},
                    title=f"Where the tokens go ({tokenizer})")
    figure.update_traces(hovertemplate="%{x}: %{y:,} tokens<extra>%{fullData.name}</extra>")
    figure.update_yaxes(tickformat=TOKENS_D3, title="tokens")
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
