"""Question set page: a whole set of questions over formats and budgets, with Wilson bands, by type and hop depth."""

from __future__ import annotations

import hashlib

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from core.analysis.suite import SuiteResult, run_suite, settings_for, unseeded_questions
from core.analysis.suite_aggregates import (
    BREAKDOWNS,
    aggregate,
    breakdown,
    failing_questions,
    pareto_across_budgets,
    smallest_budgets,
)
from core.errors import GraphContextError
from core.formats import FORMATS
from core.number_style import SHARE_D3
from core.questions import (
    SEEDINGS,
    Question,
    QuestionSet,
    generate,
    load_questions,
    parse_question_file,
    questions_jsonl,
)
from core.reports.axis_ticks import log_ticks
from core.retrieval import ORDERINGS
from dashboard import question_set_answers
from dashboard.analysis_controls import budget_list
from dashboard.detour import keep_selection
from dashboard.query_widgets import QUERY_PARAMETER_PREFIX
from dashboard.result_store import ResultStore
from dashboard.sidebar import Selection, current, format_label
from dashboard.state.question_file import remember, remembered
from dashboard.url_state import unbound_query_params
from dashboard.views.charts import BUDGET_TITLE, budget_axis
from dashboard.views.markdown_text import escape_markdown
from dashboard.views.tables import show_table

SOURCES = ("bundled", "upload", "generate")
METRICS = {"traversal accuracy": ("traversal_accuracy", "accuracy_low", "accuracy_high"),
           "evidence complete": ("evidence_complete", "complete_low", "complete_high")}
PALETTE = px.colors.qualitative.D3
OPEN_REQUEST = "question_set_open_contexts"
SUITES_KEPT = 6
DEFAULT_SPEC = "t3_prerequisite_path:count=20,distance=1-5,seed=0"


@st.cache_resource
def _store() -> ResultStore:
    return ResultStore(SUITES_KEPT)


def chosen_questions(selection: Selection) -> QuestionSet | None:
    """The bundled set of the sample, an uploaded file or a generated set; None (with the reason shown) if none."""
    sample = selection.loaded.sample
    bundled = sample is not None and sample.queries_path is not None
    source = st.segmented_control("Questions", SOURCES, default="bundled" if bundled else "generate",
                                  key="qs_source", bind="query-params") or "bundled"
    try:
        if source == "bundled":
            if not bundled:
                st.info("This graph has no bundled question set: upload one or generate one from a template.")
                return None
            return load_questions(sample.queries_path, selection.graph)
        if source == "upload":
            upload = st.file_uploader("Question file (CKG queries_*.jsonl, or the project's JSONL / CSV schema)",
                                      type=["jsonl", "json", "csv"], key="qs_upload")
            kept = remembered(st.session_state, selection.graph.content_key)
            if upload is not None:  # kept for the session: the Advisor advises over it too
                kept = remember(st.session_state, upload.name, upload.getvalue(), selection.graph.content_key)
            if kept is None:
                st.caption("One question per line with `question`, `query` and `parameters`, or `question` alone (read "
                           "on this graph); see docs/how-to/your-own-questions.md.")
                return None
            if upload is None:
                st.caption(f"Using {escape_markdown(kept.name)}, uploaded earlier in this session.")
            return parse_question_file(kept.data, kept.name, graph=selection.graph)
        spec = st.text_input("Template spec", value=DEFAULT_SPEC, key="qs_spec", bind="query-params",
                             help="TEMPLATE[:type=T,count=N,distance=A-B,seed=S,PARAM=VALUE]")
        return generate(selection.graph, spec)
    except GraphContextError as error:
        st.error(f"**These questions cannot be used.**\n\n{escape_markdown(str(error))}", icon="⚠️")
        return None


def cached_suite(selection: Selection, questions: QuestionSet, formats: tuple[str, ...], ordering: str,
                 budgets: tuple[int, ...]) -> SuiteResult:
    """run_suite for these settings, once (in this process: a web server should not fork workers)."""
    content = hashlib.sha256(questions_jsonl(questions).encode()).hexdigest()
    key = (selection.graph.content_key, content, formats, ordering, selection.layout, selection.policy, budgets,
           selection.tokenizer)
    store = _store()
    found = store.get(key)
    if found is not None:
        return found
    bar = st.progress(0.0, text="Running the question set…")
    settings = settings_for(formats, (ordering,), layouts=(selection.layout,), policies=(selection.policy,),
                            budgets=budgets, tokenizer=selection.tokenizer)
    result = run_suite(selection.graph, questions, settings, workers=1, progress=lambda done, total, _: bar.progress(
        done / max(total, 1), text=f"Running the question set: {done} of {total} tasks"))
    bar.empty()
    store.put(key, result)
    return result


def banded_figure(table: pd.DataFrame, facet: str, metric: str, title: str) -> go.Figure:
    """One panel per facet value; per format a line with its Wilson 95% band."""
    value, low, high = METRICS[metric]
    facets = list(dict.fromkeys(table[facet].sort_values().astype(str)))
    figure = make_subplots(rows=1, cols=len(facets), shared_yaxes=True, subplot_titles=facets,
                           horizontal_spacing=0.02)
    colours = {name: PALETTE[index % len(PALETTE)] for index, name in enumerate(dict.fromkeys(table["format"]))}
    for column, facet_value in enumerate(facets, start=1):
        part = table[table[facet].astype(str) == facet_value]
        for name, curve in part.groupby("format", sort=False):
            curve = curve.sort_values("budget")
            colour = colours[name]
            figure.add_scatter(x=[*curve["budget"], *curve["budget"][::-1]], y=[*curve[high], *curve[low][::-1]],
                               fill="toself", fillcolor=colour, opacity=0.15, line={"width": 0}, hoverinfo="skip",
                               showlegend=False, legendgroup=name, row=1, col=column)
            figure.add_scatter(x=curve["budget"], y=curve[value], mode="lines+markers", name=name,
                               line={"color": colour}, legendgroup=name, showlegend=column == 1,
                               customdata=curve[["questions", low, high]].values,
                               hovertemplate=name + ": %{y:.0%} [%{customdata[1]:.0%}, %{customdata[2]:.0%}] of "
                                             "%{customdata[0]:,} questions at %{x:,} tokens<extra></extra>",
                               row=1, col=column)
    # Narrow panels: few 1-2-5 ticks each (first and last from three panels on, with the middle for two), upright.
    ticks, _texts = log_ticks(table["budget"])
    kept = (sorted({0, len(ticks) - 1}) if len(facets) > 2 else sorted({0, len(ticks) // 2, len(ticks) - 1})
            if len(facets) > 1 else range(len(ticks)))
    budget_axis(figure, table["budget"], title=None, exact=[ticks[index] for index in kept])
    figure.update_xaxes(tickangle=0, tickfont={"size": 10})
    figure.update_annotations(font={"size": 12})  # the panels' titles
    figure.update_yaxes(range=[-0.05, 1.05], tickformat=SHARE_D3)
    figure.add_annotation(text=BUDGET_TITLE, x=0.5, y=0, xref="paper", yref="paper", yshift=-45, showarrow=False)
    figure.update_layout(title=title, height=400, legend_title=None, margin={"t": 70, "b": 70})
    return figure


def contexts_choices(question: Question, seeds: list[str], format_name: str, ordering: str, budget: int,
                     limit: int) -> dict[str, object]:
    """The sidebar values that show this question's cut on Contexts: its seeds, query, format, ordering, budget."""
    choices: dict[str, object] = {"query": question.query.name, "formats": [format_name], "ordering": ordering,
                                  "budget": min(budget, limit)}
    seeds = seeds or list(question.annotation_seeds)
    if seeds:  # a question naming no node (CKG T4) keeps the sidebar's seeds
        choices.update(seed_mode="nodes", seeds=seeds)
    for parameter, value in question.query.all_arguments.items():
        choices[QUERY_PARAMETER_PREFIX + parameter] = list(value) if isinstance(value, tuple) else value
    return choices


def request_contexts(questions: QuestionSet, failing: pd.DataFrame, seeding: str, format_name: str, ordering: str,
                     budget: int, limit: int) -> None:
    """Table click: put the question's cut into the sidebar, then open Contexts (on the rerun)."""
    chosen = st.session_state.get("qs_failing")
    picked = chosen.selection.rows if chosen else []
    if not picked:
        return
    row = failing.iloc[picked[0]]
    keep_selection("screens/question_set.py", "Question set")
    seeds = [seed for seed in str(row[f"{seeding}_seeds"] or "").split(", ") if seed]
    st.session_state.update(contexts_choices(questions.by_id(row["question_id"]), seeds, format_name, ordering,
                                             budget, limit))
    st.session_state[OPEN_REQUEST] = True


def show() -> None:
    if st.session_state.pop(OPEN_REQUEST, False):  # before this page binds any widget to the URL
        st.switch_page("screens/contexts.py", query_params=unbound_query_params())
    selection = current()
    budgets = budget_list()
    st.title("Question set")
    st.caption(f"{escape_markdown(selection.loaded.label)} · layout {selection.layout} · policy {selection.policy} "
               f"· {selection.tokenizer_label} (from the sidebar). Seeds come from each question's text (name matching, "
               "as a deployed retriever would) and from its annotations (the oracle), side by side.")
    questions = chosen_questions(selection)
    if questions is None:
        return
    controls = st.columns(3)
    lossless = [name for name in FORMATS.names() if FORMATS.get(name).lossless]
    formats = tuple(controls[0].multiselect("Formats", FORMATS.names(), default=list(selection.formats),
                                            format_func=format_label, key="qs_formats") or lossless[:1])
    orderings = ORDERINGS.names()  # the sidebar's ordering first chosen, where it is one of these
    ordering = controls[1].selectbox("Ordering", orderings, index=orderings.index(
        selection.ordering if selection.ordering in orderings else "hop_tiers"), key="qs_ordering", bind="query-params")
    metric = controls[2].segmented_control("Metric", list(METRICS), default="traversal accuracy", key="qs_metric",
                                           bind="query-params") or "traversal accuracy"
    facet_name = st.segmented_control("Facet by", list(BREAKDOWNS), default="query type", key="qs_facet",
                                      bind="query-params") or "query type"
    facet = BREAKDOWNS[facet_name]
    try:
        result = cached_suite(selection, questions, formats, ordering, budgets)
    except GraphContextError as error:
        st.warning(f"**This set cannot run with these settings.**\n\n{escape_markdown(str(error))}", icon="⚠️")
        return
    draw_summary(result, questions)
    table = aggregate(result.rows)
    by_facet = breakdown(result.rows, facet)
    for column, seeding in zip(st.columns(len(SEEDINGS)), SEEDINGS):
        with column:
            st.plotly_chart(banded_figure(by_facet[by_facet["seeding"] == seeding], facet, metric,
                                          f"{metric}, seeds from {seeding}"), width="stretch", key=f"qs_chart_{seeding}")
    st.caption("Bands: Wilson 95% intervals over the questions of each panel. Budgets on a log scale.")
    st.subheader("Aggregate per budget")
    show_table(table, "qs_aggregate", hide_index=True)
    show_table(smallest_budgets(table)[["seeding", "format", "budget_90", "budget_100"]], "qs_smallest", hide_index=True)
    st.subheader("Dominated across budgets")
    st.caption("On the aggregate: a format is dominated when another uses no more tokens on average and answers "
               "at least as many questions at every budget, and is strictly better at one of them at least.")
    show_table(pareto_across_budgets(result.rows), "qs_pareto", hide_index=True)
    st.subheader(f"By {facet_name}")
    show_table(by_facet, "qs_breakdown", hide_index=True)
    draw_failing(result, questions, formats, ordering, budgets, selection)
    question_set_answers.draw(selection, questions, result, formats, ordering, budgets)


def draw_summary(result: SuiteResult, questions: QuestionSet) -> None:
    counts = result.questions["ground_truth"].value_counts()
    st.markdown(f"**{escape_markdown(result.headline)}** ({escape_markdown(questions.source)}). Recorded ground truth "
                "against our solver: " + ", ".join(f"{count} {status}" for status, count in counts.items()) + ".")
    if len(result.left_out):
        st.warning(f"{len(result.left_out)} question(s) left out of accuracy, the fronts and the tables below: their "
                   "answer on this graph is empty, so every cut that parses would score as answering.", icon="⚠️")
        show_table(result.left_out[["question_id", "question", "query_type", "reason"]], "qs_left_out",
                   hide_index=True)
    differing = result.questions[result.questions["ground_truth"].isin(["tie", "differs"])]
    if len(differing):
        show_table(differing[["question_id", "question", "ground_truth", "ground_truth_detail"]], "qs_ground_truth",
                   hide_index=True)
    for seeding in SEEDINGS:
        unseeded = unseeded_questions(result.questions, seeding)
        if len(unseeded):
            with st.expander(f"{len(unseeded)} question(s) with no seeds from the {seeding}"):
                show_table(unseeded, f"qs_unseeded_{seeding}", hide_index=True)


def draw_failing(result: SuiteResult, questions: QuestionSet, formats: tuple[str, ...], ordering: str, budgets: tuple[int, ...],
                 selection: Selection) -> None:
    st.subheader("Questions that fail at the inspected budget")
    controls = st.columns(3)
    budget = controls[0].selectbox("Inspected budget", budgets, index=len(budgets) // 2,
                                   format_func="{:,} tokens".format, key="qs_budget", bind="query-params")
    format_name = controls[1].selectbox("Format", formats, key="qs_failing_format")
    seeding = controls[2].segmented_control("Seeds from", SEEDINGS, default="text", key="qs_seeding") or "text"
    failing = failing_questions(result.rows, result.questions, seeding=seeding, format_name=format_name,
                                ordering=ordering, layout=selection.layout, policy=selection.policy, budget=budget)
    st.caption(f"{len(failing)} of {result.questions.shape[0]} questions are not answered by {format_name} at "
               f"{budget:,} tokens. Click a row to open Contexts on its seeds and query.")
    show_table(failing, "qs_failing", hide_index=True, on_select=lambda: request_contexts(
        questions, failing, seeding, format_name, ordering, budget, selection.budget_limit), selection_mode="single-row")


if __name__ == "__main__":  # run as a page by st.navigation
    show()
