"""Exports page: the sweep as CSV and JSON, the contexts as a zip, the charts as HTML, and a one-page report."""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.analysis.pareto_tables import answer_points, efficiency_table
from core.budget import DEFAULT_POLICIES
from core.budget.policies import Cut, cut
from core.errors import GraphContextError
from core.formats import FORMATS
from core.reports.exports import contexts_zip, plotly_script, report_html, results_csv, results_json
from dashboard.analysis_cache import (
    SCOPES,
    anatomy_frame,
    orderings_sweep,
    pareto_sweep,
    selection_markers,
    survival_sweep,
)
from dashboard.analysis_controls import budget_list, show_error
from dashboard.renderings import accounting_for
from dashboard.sidebar import Selection, current
from dashboard.views.charts import anatomy_chart, orderings_figure, pareto_figure, standalone, survival_figure
from dashboard.views.markdown_text import escape_markdown

REPORT_ACCURACY = "traversal accuracy"


def sweep_results(selection: Selection, budgets: tuple[int, ...]) -> pd.DataFrame:
    """The Budget survival page's sweep: the chosen formats, the chosen ordering, both policies."""
    return survival_sweep(selection, budgets)


def current_cuts(selection: Selection) -> list[Cut]:
    """Every context the current settings render: each chosen format at the budget, under both policies."""
    return [cut(accounting_for(selection, name), FORMATS.get(name), policy, selection.budget)
            for name in selection.formats for policy in DEFAULT_POLICIES]


def charts(selection: Selection, budgets: tuple[int, ...]) -> dict[str, go.Figure]:
    """The analysis pages' charts for the current settings, drawn by the same view functions as the pages."""
    frame = sweep_results(selection, budgets)
    markers = selection_markers(selection)
    points = answer_points(pareto_sweep(selection, budgets), REPORT_ACCURACY)
    first = selection.formats[0]
    return {
        "budget survival": survival_figure(frame, markers, "Survival against the budget"),
        "orderings": orderings_figure(orderings_sweep(selection, first, budgets), first, selection.policy),
        "pareto": pareto_figure(points, REPORT_ACCURACY, selection.approximate),
        "token anatomy": anatomy_chart(anatomy_frame(selection, selection.tokenizer, SCOPES[0], False),
                                       selection.tokenizer)}


def view_url(base: str) -> str:
    """The URL that reproduces the current view: this app with every URL-bound setting."""
    parameters = {key: st.query_params.get_all(key) for key in st.query_params}  # every value of a list
    return base.split("?")[0] + ("?" + urlencode(parameters, doseq=True) if parameters else "")


def report(selection: Selection, budgets: tuple[int, ...], url: str) -> str:
    """One HTML page: the graph, the settings, the tables and the charts of the current view."""
    graph = selection.graph
    figures = charts(selection, budgets)
    facts = [("Graph", selection.loaded.label), ("Graph hash", graph.sha256),
             ("Size", f"{len(graph.nodes):,} nodes, {len(graph.edges):,} edges"),
             ("Query", selection.query.question), ("Seeds", ", ".join(selection.seeds.node_ids) or "(none)"),
             ("Tokenizer", selection.tokenizer), ("Formats", ", ".join(selection.formats)),
             ("Ordering", selection.ordering), ("Layout", selection.layout), ("Policy", selection.policy),
             ("Budget inspected", f"{selection.budget:,}"), ("Budgets swept", ", ".join(f"{b:,}" for b in budgets))]
    frame = sweep_results(selection, budgets)
    tables = [("Every cut (formats x policies x budgets)",
               frame[["format", "policy", "budget", "budgeted_tokens", "records_kept", "records_total", "parse_ok",
                      "evidence_survival", "traversal_accuracy", "coverage_tokens"]]),
              (f"Efficiency ({REPORT_ACCURACY}, {selection.policy} policy)",
               efficiency_table(pareto_sweep(selection, budgets), REPORT_ACCURACY)),
              ("Token anatomy (complete texts)",
               anatomy_frame(selection, selection.tokenizer, SCOPES[0], False).reset_index())]
    fragments = [(title, standalone(figure).to_html(include_plotlyjs=False, full_html=False))
                 for title, figure in figures.items()]
    return report_html(f"Graph Context Lab report: {selection.loaded.label}", url, facts, tables, fragments,
                       plotly_script())


def show() -> None:
    selection = current()
    budgets = budget_list()
    st.title("Exports")
    st.caption(f"{escape_markdown(selection.loaded.label)} · formats {', '.join(selection.formats)} · ordering "
               f"{selection.ordering} · budgets {', '.join(f'{b:,}' for b in budgets)}")
    try:
        frame = sweep_results(selection, budgets)
        # The charts need these sweeps too: compute them now, with their progress bars, not on a download.
        pareto_sweep(selection, budgets)
        orderings_sweep(selection, selection.formats[0], budgets)
    except GraphContextError as error:
        show_error(error)
        return
    url = view_url(st.context.url or "http://localhost:8501/")
    st.markdown("This view is reproduced by the URL below (the report prints it too):")
    st.code(url, language=None)
    st.subheader("Sweep results")
    st.caption(f"{len(frame):,} cuts: the chosen formats under the chosen ordering and both policies, at every "
               "budget of the sidebar's list. JSON records follow the seed's result schema; model fields are empty.")
    left, right = st.columns(2)
    left.download_button("Results as CSV", lambda: results_csv(frame), file_name="sweep.csv", mime="text/csv",
                         key="export_csv", on_click="ignore")
    right.download_button("Results as JSON records", lambda: results_json(frame), file_name="sweep.json",
                          mime="application/json", key="export_json", on_click="ignore")
    st.subheader("Contexts")
    st.caption(f"Every chosen format cut at {selection.budget:,} tokens under each policy, exactly as sent.")
    st.download_button("Contexts as a zip", lambda: contexts_zip(current_cuts(selection)), file_name="contexts.zip",
                       mime="application/zip", key="export_zip", on_click="ignore")
    st.subheader("Charts and report")
    # One row that wraps, each button as wide as its label (five equal columns cut "Budget survival chart (…").
    row = st.container(horizontal=True, wrap=True, gap="small")
    for name in ("budget survival", "orderings", "pareto", "token anatomy"):
        row.download_button(f"{name.capitalize()} chart (HTML)",
                            lambda name=name: standalone(charts(selection, budgets)[name]).to_html(include_plotlyjs=True),
                            file_name=f"{name.replace(' ', '_')}.html", mime="text/html",
                            key=f"export_chart_{name}", on_click="ignore", width="content")
    row.download_button("One-page report (HTML)", lambda: report(selection, budgets, url),
                        file_name="report.html", mime="text/html", key="export_report", on_click="ignore",
                        type="primary", width="content")
    st.caption("The charts and the report embed plotly.js, so they open offline.")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
